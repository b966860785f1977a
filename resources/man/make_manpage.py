#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make_manpage.py PERFLAB VERSION OUT README: writes OUT (perflab.1) and OUT.gz from the --help
of perflab and of each of its subcommands, so the page says what the binary beside it does,
and from README's "Run specs" section, the spec reference, so neither drifts from its source."""
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


def inline(text):
    """Markdown's inline marks as roff fonts: `code` and **bold** bold, links as their text."""
    text = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"\1 <\2>", text)
    parts = re.split(r"(`[^`]+`|\*\*[^*]+\*\*)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append("\\fB" + esc(part[1:-1]) + "\\fR")
        elif part.startswith("**") and part.endswith("**") and len(part) > 3:
            out.append("\\fB" + esc(part[2:-2].replace("`", "")) + "\\fR")
        else:
            out.append(esc(part))
    return "".join(out)


def markdown(out, text):
    """The README's Markdown as it is written there: ### headings, paragraphs, - and 1. lists
    (continued by indented lines), fenced code and | tables, both kept as preformatted text."""
    lines = text.splitlines()
    i = 0
    paragraph = []

    def flush():
        if paragraph:
            out.append(".PP")
            out.append(re.sub(r"^([.'])", r"\\&\1", inline(" ".join(paragraph))))
            paragraph.clear()

    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            flush()
            out += [".PP", ".RS 2", ".nf"]
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                out.append("\\&" + esc(lines[i]))
                i += 1
            out += [".fi", ".RE"]
        elif line.startswith("|"):
            flush()
            out += [".PP", ".RS 2", ".nf"]
            while i < len(lines) and lines[i].startswith("|"):
                if not re.match(r"^\|[ :|-]+\|$", lines[i]):
                    out.append("\\&" + inline(lines[i]))
                i += 1
            out += [".fi", ".RE"]
            continue
        elif line.startswith("#"):
            flush()
            out.append('.SS "%s"' % inline(line.lstrip("#").strip()))
        elif re.match(r"^(- |\d+\. )", line):
            flush()
            bullet, _, first = line.partition(" ")
            item = [first]
            while i + 1 < len(lines) and lines[i + 1].startswith("  ") and lines[i + 1].strip():
                i += 1
                item.append(lines[i].strip())
            out.append('.IP "%s" 4' % ("\\(bu" if bullet == "-" else bullet))
            out.append(re.sub(r"^([.'])", r"\\&\1", inline(" ".join(item))))
        elif not line.strip():
            flush()
        else:
            paragraph.append(line.strip())
        i += 1
    flush()


def spec_reference(readme):
    """README's "## Run specs" section, up to the next ## heading."""
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    start = text.index("\n## Run specs\n")
    body = text[start + len("\n## Run specs\n"):]
    end = re.search(r"^## ", body, re.M)
    return body[:end.start()] if end else body


def main():
    perflab, version, path, readme = sys.argv[1:5]
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
    out.append(".SH RUN SPECS")
    markdown(out, spec_reference(readme))
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
