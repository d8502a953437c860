-- Lead intake (docs/decisions/027-intake-speed.md). SQLite's migration 0011 moves its
-- full-text name index out of the per-lead trigger and shortens the funnel's source count.
-- PostgreSQL's name search is an expression index kept with each row, and its source count
-- is a function call on the row: nothing to change here; the number keeps both lists alike.
SELECT 1;
