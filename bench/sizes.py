"""Section 4 of `make bench` (BENCH_ONLY=sizes): page weight. The budgets are a test in
`make test` (server/tests/it/pages/weight.rs, docs/product.md "Page weight"); this section runs
that test and prints its table: for each page the gzipped HTML with its CSS, and the gzipped
JavaScript it fetches ahead and has once its islands are live. The test fails, and so does
this section, on a page over its budget.
"""

from common import ROOT, run


def measure_sizes(bench):
    k = bench.knobs
    bench.say("4. page weight against the budgets (gzip as the server sends it; 1 KB = 1024 B)")
    done = run([k.cargo, "test", "--locked", "--quiet", "-p", "site-server", "--test", "it", "pages::weight::", "--",
                "--nocapture", "--test-threads=1"], cwd=ROOT)
    table = [line for line in done.stdout.splitlines() if line.startswith(("page ", "/"))]
    for line in table:
        print(line)
    if done.returncode != 0:
        bench.die(f"the page-weight test failed:\n{(done.stdout + done.stderr)[-2000:]}")
    bench.row("page weight", f"{len(table) - 1} pages within the budgets", "docs/product.md, \"Page weight\"", "OK")
