#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_manpage.py PERFLAB PAGE README: the built man page renders without a warning from man or
groff, it has a section for every subcommand `perflab --help` lists, and its RUN SPECS section
has every subsection and every spec example of the README's "Run specs"."""
import os
import re
import subprocess
import sys

perflab, page, readme = sys.argv[1:4]
env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80")
man = subprocess.run(["man", "--warnings", "-l", page], capture_output=True, text=True, env=env)
failures = []
if man.returncode != 0 or man.stderr:
    failures.append("man -l %s: exit %d\n%s" % (page, man.returncode, man.stderr))
listed = subprocess.run([perflab, "--help"], check=True, capture_output=True, text=True).stdout
names = re.findall(r"^  (\S+) ", listed.split("Subcommands:", 1)[1], re.M)
if len(names) < 10:
    failures.append("perflab --help lists only %s" % names)
headings = set(re.findall(r"^   perflab (\S+)$", man.stdout, re.M))
failures += ["no section for subcommand %s" % n for n in names if n not in headings]
spec_text = open(readme, encoding="utf-8").read().split("\n## Run specs\n", 1)[1]
spec_text = re.split(r"^## ", spec_text, flags=re.M)[0]
if "\nRUN SPECS\n" not in man.stdout:
    failures.append("no RUN SPECS section")
else:
    reference = man.stdout.split("\nRUN SPECS\n", 1)[1]
    for heading in re.findall(r"^### (.+)$", spec_text, re.M):
        if not re.search(r"^   " + re.escape(heading) + "$", reference, re.M):
            failures.append("RUN SPECS has no subsection %s" % heading)
    # Every line of every example, as written (man indents them and keeps them whole).
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", spec_text, re.M | re.S):
        for line in block.splitlines():
            if line.strip() and line.rstrip() not in reference:
                failures.append("RUN SPECS lacks the example line %r" % line)
for line in failures:
    print(line)
sys.exit(1 if failures else 0)
