"""Tests of bench/report.py on a small document and a fake run: `python3 -m unittest bench/test_report.py`."""

import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

DOC = """# Benchmarks

| Build | leads/s |
|---|---|
| before (abc1234, 2026-11-01) | 100 |

<!-- bench:begin -->
### render

2026-11-01, commit abc1234, 2 cores.

| What | Figures | Aim | Verdict |
|---|---|---|---|
| render /hvac | 5 ms | | |

### leads

2026-11-01, commit abc1234, 2 cores.

| What | Figures | Aim | Verdict |
|---|---|---|---|
| leads sqlite | 100/s | | |
<!-- bench:end -->

Notes after the generated part.
"""

ORDER = ["render", "warm", "leads", "admin"]


class UpdateTest(unittest.TestCase):
    def test_a_run_replaces_its_sections_and_keeps_the_others(self):
        block = report.section_block("leads", "2026-11-28", "def5678", "2 cores, load 3.1",
                                     [("leads sqlite", "28,000/s (p99 5 ms)", "", "ok")])
        out = report.update(DOC, {"leads": block}, ORDER)
        self.assertIn("| leads sqlite | 28,000/s (p99 5 ms) |  | ok |", out)
        self.assertNotIn("100/s", out)
        self.assertIn("2026-11-28, commit def5678, 2 cores, load 3.1.", out)
        # render was not run: its block stays, with its own date and commit.
        self.assertIn("| render /hvac | 5 ms | | |", out)
        self.assertIn("2026-11-01, commit abc1234", out)
        # Outside the markers nothing moves.
        self.assertTrue(out.startswith(DOC.split(report.BEGIN)[0]))
        self.assertTrue(out.endswith(report.END + "\n\nNotes after the generated part.\n"))
        self.assertLess(out.index("### render"), out.index("### leads"))

    def test_a_new_section_goes_in_the_benchs_order(self):
        block = report.section_block("warm", "2026-11-28", "def5678", "2 cores", [("warm-up", "3 s")])
        out = report.update(DOC, {"warm": block}, ORDER)
        self.assertLess(out.index("### render"), out.index("### warm"))
        self.assertLess(out.index("### warm"), out.index("### leads"))
        self.assertIn("| warm-up | 3 s |  |  |", out)

    def test_the_same_run_twice_gives_the_same_document(self):
        block = report.section_block("admin", "2026-11-28", "def5678", "2 cores", [("a|b", "1\n2")],
                                     extra="| page | perf |\n|---|---|")
        once = report.update(DOC, {"admin": block}, ORDER)
        self.assertEqual(once, report.update(once, {"admin": block}, ORDER))
        self.assertIn("| a\\|b | 1 2 |", once)
        self.assertIn("\n| page | perf |\n", once)

    def test_a_document_without_markers_is_refused(self):
        with self.assertRaises(report.ReportError):
            report.update("# Benchmarks\n", {}, ORDER)
        with self.assertRaises(report.ReportError):
            report.update(report.END + "\n" + report.BEGIN + "\n", {}, ORDER)

    def test_write_rewrites_the_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "benchmarks.md")
            with open(path, "w", encoding="utf-8") as f:
                f.write(DOC)
            report.write(path, {"render": report.section_block("render", "2026-11-28", "def5678", "2 cores", [])}, ORDER)
            with open(path, encoding="utf-8") as f:
                out = f.read()
            self.assertIn("(no figures: the section skipped or printed only)", out)
            self.assertIn("| leads sqlite | 100/s | | |", out)
            self.assertEqual(os.listdir(tmp), ["benchmarks.md"])


class JudgeTest(unittest.TestCase):
    def test_a_figure_at_or_past_its_aim_is_ok(self):
        self.assertEqual(report.judge(20_000, 20_000, 0.2), report.OK)
        self.assertEqual(report.judge("25000", 20_000, 0.2), report.OK)
        self.assertEqual(report.judge(6.5, 10, 0.3, higher_is_better=False), report.OK)
        self.assertEqual(report.judge(10, 10, 0.3, higher_is_better=False), report.OK)

    def test_a_figure_short_within_the_spread_is_near(self):
        self.assertEqual(report.judge(16_000, 20_000, 0.2), report.NEAR)
        self.assertEqual(report.judge(12.9, 10, 0.3, higher_is_better=False), report.NEAR)
        self.assertEqual(report.judge(0.91, 1.0, 0.1), report.NEAR)

    def test_a_regression_beyond_the_spread_fails(self):
        self.assertEqual(report.judge(15_999, 20_000, 0.2), report.FAIL)
        self.assertEqual(report.judge(13.1, 10, 0.3, higher_is_better=False), report.FAIL)
        self.assertEqual(report.judge(81, 80, 0.0, higher_is_better=False), report.FAIL)

    def test_no_figure_fails(self):
        for missing in (None, "", "n/a", float("nan")):
            self.assertEqual(report.judge(missing, 1.0, 0.1), report.FAIL, repr(missing))

    def test_the_worst_verdict_wins(self):
        self.assertEqual(report.worst([report.OK, report.NEAR]), report.NEAR)
        self.assertEqual(report.worst([report.NEAR, report.FAIL, report.OK]), report.FAIL)
        self.assertEqual(report.worst([]), report.OK)
        self.assertIn("20% run-to-run spread", report.verdict_text(report.NEAR, 0.2))
        self.assertTrue(report.verdict_text(report.FAIL, 0.1).startswith("FAIL"))


if __name__ == "__main__":
    unittest.main()
