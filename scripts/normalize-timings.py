#!/usr/bin/env python3
"""Masks what a run measures of the machine (wall and phase times, rates per
second of wall time, the log's own path) in a folder of outputs, in place, so
that two builds' outputs compare byte for byte: scripts/reference-outputs.sh
calls it. Everything else is left as written."""
import os, re, sys

NUM = r"-?[0-9][0-9.e+-]*"
RULES = [
    (re.compile(r'"(wallSeconds|seconds)":\s*' + NUM), r'"\1":"T"'),
    (re.compile(r'"phaseSeconds":\s*\{[^}]*\}'), r'"phaseSeconds":"T"'),
    (re.compile(r'"files":\s*\[[^\]]*\]'), r'"files":"PATH"'),
    (re.compile(r' time="[0-9.]+"'), r' time="T"'),
    (re.compile(r'<td>[0-9.]+ (?:ms|s)</td>'), r"<td>T</td>"),
    (re.compile(r'results \([0-9.]+ kB of JSON\)'), r'results (N kB of JSON)'),
    (re.compile(r'(<dt>(?:Wall time|Events per second|Widget-days per second|Time in [a-z]+|Simulation time)</dt><dd>)[^<]*(</dd>)'), r'\1T\2'),
]

for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        if not f.endswith((".json", ".html", ".xml", ".md")):
            continue
        p = os.path.join(root, f)
        text = open(p, encoding="utf-8").read()
        new = text
        for pattern, repl in RULES:
            new = pattern.sub(repl, new)
        if new != text:
            open(p, "w", encoding="utf-8").write(new)
