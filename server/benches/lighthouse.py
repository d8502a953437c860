#!/usr/bin/env python3
"""Reads one Lighthouse JSON report for server/benches/run.sh (standard library only).

  lighthouse.py REPORT.json

prints, on its first line,
  lighthouse performance=.. accessibility=.. best-practices=.. seo=.. lcp_ms=.. tbt_ms=.. cls=.. error=..
(scores 0-100, "-" when a category has no score; error= is the runtimeError code or "none"),
then one line per failing audit (score < 1, not notApplicable, informative or manual), worst first:
  fail<TAB>CATEGORY<TAB>SCORE<TAB>AUDIT_ID<TAB>TITLE<TAB>DISPLAY_VALUE
An audit in several categories is listed once, under the first of them.
"""

import json
import sys

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (("lcp_ms", "largest-contentful-paint", 0), ("tbt_ms", "total-blocking-time", 0),
           ("cls", "cumulative-layout-shift", 3))


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        report = json.load(f)
    categories = report.get("categories") or {}
    audits = report.get("audits") or {}
    fields = []
    for name in CATEGORIES:
        score = (categories.get(name) or {}).get("score")
        fields.append(f"{name}={'-' if score is None else round(score * 100)}")
    for key, audit_id, digits in METRICS:
        value = (audits.get(audit_id) or {}).get("numericValue")
        fields.append(f"{key}={'-' if value is None else f'{value:.{digits}f}'}")
    error = report.get("runtimeError") or {}
    fields.append(f"error={error.get('code') or 'none'}")
    print("lighthouse " + " ".join(fields))

    seen = set()
    failing = []
    for name in CATEGORIES:
        for ref in (categories.get(name) or {}).get("auditRefs") or []:
            audit_id = ref.get("id")
            audit = audits.get(audit_id) or {}
            score = audit.get("score")
            mode = audit.get("scoreDisplayMode")
            if audit_id in seen or score is None or score >= 1:
                continue
            if mode in ("notApplicable", "informative", "manual", "error"):
                continue
            seen.add(audit_id)
            failing.append((score, name, audit_id, audit.get("title") or "", audit.get("displayValue") or ""))
    # Audits that errored (no score) are worth knowing about too.
    for name in CATEGORIES:
        for ref in (categories.get(name) or {}).get("auditRefs") or []:
            audit = audits.get(ref.get("id")) or {}
            if ref.get("id") not in seen and audit.get("scoreDisplayMode") == "error":
                seen.add(ref.get("id"))
                failing.append((-1, name, ref.get("id"), audit.get("title") or "",
                                "error: " + (audit.get("errorMessage") or "")[:120]))
    failing.sort(key=lambda a: (CATEGORIES.index(a[1]), a[0]))
    for score, name, audit_id, title, shown in failing:
        clean = lambda s: " ".join(str(s).split())
        print("\t".join(["fail", name, "err" if score < 0 else f"{score:.2f}", audit_id, clean(title), clean(shown)]))


if __name__ == "__main__":
    main()
