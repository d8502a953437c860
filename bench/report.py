"""Writes a `make bench` run's summary into docs/benchmarks.md, so the figures there are the
bench's own and never kept by hand.

The generated part of the document lies between the lines `<!-- bench:begin -->` and
`<!-- bench:end -->`. Inside it, each section of the bench (bench.py's SECTIONS) has a block
of its own, headed `### <section>`, with the date, the commit and the machine of the run that
last measured it. A run replaces the blocks of the sections it ran and keeps the others, so
`BENCH_ONLY=leads make bench` refreshes the lead intake's figures alone. Everything outside
the markers (the history tables, with their dates and commits) is left as it is.

It also judges a figure against its aim (`judge`): the figures the site holds at a limit
(docs/decisions/030-the-cached-page-at-the-limit.md) each carry an aim and the run-to-run
spread measured for them on our machines, and a figure that misses its aim by more than that
spread fails the run (bench.py exits 1 once every section has run and the document is
written).

Standard library only; `python3 -m unittest bench/test_report.py` tests it (`make check`).
"""

import os
import subprocess

BEGIN = "<!-- bench:begin -->"
END = "<!-- bench:end -->"


class ReportError(Exception):
    """The document has no generated part, or a broken one."""


def section_block(name, date, commit, machine, rows, extra=""):
    """One section's block: its heading, the run's date, commit and machine, and its summary
    rows (what, figures, aim, verdict) as a Markdown table; `extra`, Markdown added below."""
    lines = [f"### {name}", "", f"{date}, commit {commit}, {machine}.", ""]
    if rows:
        lines += ["| What | Figures | Aim | Verdict |", "|---|---|---|---|"]
        lines += ["| " + " | ".join(cell(c) for c in (tuple(row) + ("",) * 4)[:4]) + " |" for row in rows]
    else:
        lines.append("(no figures: the section skipped or printed only)")
    if extra:
        lines += ["", extra.strip()]
    return "\n".join(lines) + "\n"


def cell(text):
    """A table cell: pipes escaped, one line."""
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def blocks_of(generated):
    """The generated part's blocks, by section name, in the order they appear."""
    blocks, name, lines = {}, None, []
    for line in generated.splitlines(keepends=True):
        if line.startswith("### "):
            if name is not None:
                blocks[name] = "".join(lines).strip() + "\n"
            name, lines = line[4:].strip(), [line]
        elif name is not None:
            lines.append(line)
        elif line.strip():
            raise ReportError(f"text before the first '### ' heading inside {BEGIN}: {line.strip()!r}")
    if name is not None:
        blocks[name] = "".join(lines).strip() + "\n"
    return blocks


def update(text, new_blocks, order):
    """The document `text` with the blocks of `new_blocks` (section name to its block) put in
    place of the previous ones of the same name; the blocks are kept in `order` (the bench's
    sections), any other name after them."""
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise ReportError(f"the document must hold one {BEGIN} line, then one {END} line")
    head, rest = text.split(BEGIN, 1)
    generated, tail = rest.split(END, 1)
    blocks = blocks_of(generated)
    blocks.update(new_blocks)
    names = [n for n in order if n in blocks] + [n for n in blocks if n not in order]
    body = "\n".join(blocks[n] for n in names)
    return head + BEGIN + "\n" + body + ("\n" if body else "") + END + tail


def commit(root):
    """`git rev-parse --short HEAD`, with `-dirty` when the work tree has changes."""
    def git(*args):
        return subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)
    head = git("rev-parse", "--short", "HEAD")
    if head.returncode != 0:
        return "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return head.stdout.strip() + ("-dirty" if dirty else "")


def write(path, new_blocks, order):
    """Rewrites the document at `path` with `new_blocks` (see update), atomically."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    updated = update(text, new_blocks, order)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(updated)
    os.replace(tmp, path)


OK, NEAR, FAIL = "OK", "NEAR", "FAIL"


def judge(value, aim, spread, higher_is_better=True):
    """OK when `value` meets `aim` (at least it, or at most it when lower is better); NEAR
    when it misses by no more than `spread`, a fraction of the aim (the run-to-run spread:
    a figure that close may be the run's luck); FAIL beyond. A value that is not a number
    (a section that could not measure it) is a FAIL."""
    try:
        value, aim = float(value), float(aim)
    except (TypeError, ValueError):
        return FAIL
    if value != value:  # NaN
        return FAIL
    if (value >= aim) if higher_is_better else (value <= aim):
        return OK
    limit = aim * (1 - spread) if higher_is_better else aim * (1 + spread)
    return NEAR if ((value >= limit) if higher_is_better else (value <= limit)) else FAIL


def worst(verdicts):
    """The worst of several verdicts (FAIL, then NEAR, then OK); OK for none."""
    for v in (FAIL, NEAR):
        if v in verdicts:
            return v
    return OK


def verdict_text(verdict, spread):
    """How a verdict reads in the summary."""
    if verdict == NEAR:
        return f"NEAR (short of the aim, within the {spread:.0%} run-to-run spread)"
    if verdict == FAIL:
        return f"FAIL (short of the aim by more than the {spread:.0%} run-to-run spread)"
    return OK
