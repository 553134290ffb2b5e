//! The helpers that the opening-suite scripts share (`scripts/suites.py`: the board's symmetries
//! and re-rating a suite in place; `scripts/gtp_engine.py`: GTP questions, errors raised), checked
//! by `tests/python/opening_scripts_check.py` against the release `tessera-gtp`.

mod support;

#[test]
fn the_opening_scripts_helpers_work() {
    let engine = support::engine_binary("tessera-gtp");
    support::run_python_check("opening_scripts_check.py", [&engine], "all opening-script checks passed");
}
