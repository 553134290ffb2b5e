//! The repository keeps a copy of the shared reference data (`../shared/reference`) so that a bare
//! clone runs every rules test; where the shared originals sit beside the project, the copy must
//! match them byte for byte.

mod support;

const FILES: [&str; 5] =
    ["README.md", "chess-perft.epd", "chess960-perft.epd", "xiangqi-perft.epd", "renju-forbidden.txt"];

#[test]
fn the_copy_matches_the_shared_reference_data() {
    let shared = support::workspace_root().join("../shared/reference");
    if !shared.is_dir() {
        eprintln!("SKIP: {} is not beside this checkout; only the copy is used", shared.display());
        return;
    }
    for file in FILES {
        let original = std::fs::read(shared.join(file)).expect("a shared reference file");
        let copy = std::fs::read(support::reference_file(file)).expect("the copy in tests/reference");
        assert!(original == copy, "tests/reference/{file} differs from ../shared/reference/{file}");
    }
}

#[test]
fn every_copied_file_is_present_and_not_empty() {
    for file in FILES {
        let text = std::fs::read_to_string(support::reference_file(file)).expect("a copied reference file");
        assert!(text.lines().count() > 5, "tests/reference/{file} is too short");
    }
}
