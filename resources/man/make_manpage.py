#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make_manpage.py PERFLAB VERSION OUT: writes OUT (perflab.1) and OUT.gz from the --help of
perflab and of each of its subcommands, so the page says what the binary beside it does."""
import gzip
import re
import subprocess
import sys


def help_of(perflab, words):
    out = subprocess.run([perflab, *words, "--help"], check=True, capture_output=True,
                         text=True).stdout
    # CLI11 names the binary as it was called: a build directory's path.
    return out.replace(perflab, "perflab")


def sections(text):
    """CLI11's help: a description, a Usage line, then titled sections of `  name   help` rows
    (a name too wide for its column puts the help on the next, indented line)."""
    lines = text.splitlines()
    description = lines[0].strip()
    usage = next((l[len("Usage: "):] for l in lines if l.startswith("Usage: ")), "")
    parts, title = {}, None
    for line in lines:
        if re.match(r"^[A-Z][A-Za-z ]*:$", line):
            title = line[:-1]
            parts[title] = []
        elif title and line.startswith("  ") and line.strip():
            if line.startswith(" " * 8) and parts[title]:
                name, helptext = parts[title][-1]
                parts[title][-1] = (name, (helptext + " " + line.strip()).strip())
            else:
                name, _, helptext = line.strip().partition("  ")
                parts[title].append((name.strip(), helptext.strip()))
    return description, usage, parts


def esc(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    # A line starting with . or ' would be a request.
    return re.sub(r"^([.'])", r"\\&\1", text)


def rows(out, items):
    for name, helptext in items:
        out.append(".TP")
        first, _, rest = name.partition(" ")
        out.append("\\fB%s\\fR%s" % (esc(first), " " + esc(rest) if rest else ""))
        out.append(esc(helptext))


def command(out, perflab, words, level):
    description, usage, parts = sections(help_of(perflab, words))
    out.append('.SS "%s"' % esc(" ".join(["perflab", *words])))
    out.append(esc(description))
    out.append(".PP")
    out.append(".B Usage:")
    out.append(esc(usage))
    for title in ("Positionals", "Options"):
        items = [i for i in parts.get(title, []) if i[0] != "-h,--help"]
        if items:
            out.append(".PP")
            out.append(".I %s:" % title)
            rows(out, items)
    for name, _ in parts.get("Subcommands", []):
        command(out, perflab, [*words, name], level + 1)


def main():
    perflab, version, path = sys.argv[1:4]
    description, _, parts = sections(help_of(perflab, []))
    summary = description.split(": ", 1)[-1]
    out = [
        '.TH PERFLAB 1 "" "PerfLab %s" "User Commands"' % esc(version),
        ".SH NAME",
        "perflab \\- %s" % esc(summary),
        ".SH SYNOPSIS",
        ".B perflab",
        "[\\fB\\-\\-help\\fR] [\\fB\\-\\-version\\fR] [\\fISUBCOMMAND\\fR] [\\fIARGS\\fR...]",
        ".SH DESCRIPTION",
        esc(description),
        ".PP",
        "With no subcommand, perflab opens the desktop app. The same engine runs headless: "
        "\\fBperflab run\\fR \\fIspec.json\\fR.",
        ".SH OPTIONS",
    ]
    rows(out, parts.get("Options", []))
    out.append(".SH SUBCOMMANDS")
    rows(out, parts.get("Subcommands", []))
    out.append(".SH COMMANDS")
    for name, _ in parts.get("Subcommands", []):
        command(out, perflab, [name], 1)
    out += [
        ".SH FILES",
        ".TP",
        ".I /usr/share/perflab/specs/",
        "Run spec templates to start from (the desktop app's File menu offers the same).",
        ".TP",
        ".I /usr/share/perflab/grafana/perflab\\-dashboard.json",
        "A Grafana dashboard for \\fBperflab run \\-\\-metrics\\-listen\\fR.",
        ".SH SEE ALSO",
        ".BR memcached (1),",
        ".BR ssh (1)",
    ]
    text = "\n".join(out) + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    # mtime 0: the same page gives the same bytes, as a package wants.
    with open(path + ".gz", "wb") as raw, gzip.GzipFile(
            filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as gz:
        gz.write(text.encode("utf-8"))


main()
