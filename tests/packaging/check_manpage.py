#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_manpage.py PERFLAB PAGE: the built man page renders without a warning from man or
groff, and it has a section for every subcommand `perflab --help` lists."""
import os
import re
import subprocess
import sys

perflab, page = sys.argv[1:3]
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
for line in failures:
    print(line)
sys.exit(1 if failures else 0)
