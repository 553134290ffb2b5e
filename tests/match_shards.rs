//! `tessera match` in cutechess-cli's form and spread over shards, end to end with the release
//! binaries: a match given in cutechess's words and the same match played as three shards and
//! merged by `tessera match-merge` print the same table (same games, openings and colours).

mod support;

use std::path::PathBuf;
use std::process::{Command, Output};

fn tessera(args: &[String]) -> Output {
    Command::new(support::tool_binary()).args(args).output().expect("running tessera")
}

fn stdout_of(args: &[String]) -> String {
    let output = tessera(args);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "tessera {args:?} failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    stdout
}

/// The final table: from `Score of` to the end, without the shard's closing note.
fn table(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|line| !line.starts_with("Score of"))
        .filter(|line| !line.starts_with("Shard "))
        .map(str::to_owned)
        .collect()
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn cutechess_form_and_merged_shards_give_one_table() {
    let engine = support::engine_binary("tessera-uci").display().to_string();
    let sprt = "elo0=-500 elo1=500 alpha=0.001 beta=0.001";
    let mut cutechess = words("match -engine");
    cutechess.push(format!("cmd={engine}"));
    cutechess.extend(words("name=one proto=uci -engine"));
    cutechess.push(format!("cmd={engine}"));
    cutechess.extend(words(&format!(
        "name=two proto=uci -each tc=inf depth=2 -rounds 3 -games 2 -maxmoves 40 -sprt {sprt} -repeat -recover"
    )));
    let whole = table(&stdout_of(&cutechess));
    assert!(
        whole.first().is_some_and(|line| line.starts_with("Score of one vs two:") && line.ends_with(" 6")),
        "{whole:?}"
    );

    let dir = std::env::temp_dir().join(format!("tessera-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let files: Vec<PathBuf> = (0..3).map(|index| dir.join(format!("shard-{index}.txt"))).collect();
    for (index, file) in files.iter().enumerate() {
        let mut ours = words("match --game chess --tc depth=2 --games 6 --max-plies 80 --engine");
        ours.push(format!("cmd={engine} name=one"));
        ours.push("--engine".into());
        ours.push(format!("cmd={engine} name=two"));
        ours.extend(["--sprt".into(), sprt.into(), "--shard".into(), format!("{index}/3"), "--results".into()]);
        ours.push(file.display().to_string());
        let shard = stdout_of(&ours);
        assert!(shard.contains(&format!("Shard {index}/3: results in")), "{shard}");
    }
    let mut merge = vec!["match-merge".to_string()];
    merge.extend(files.iter().rev().map(|file| file.display().to_string()));
    let merged = stdout_of(&merge);
    assert!(merged.starts_with("6 games from 3 shards"), "{merged}");
    assert_eq!(table(&merged), whole);

    // A missing shard is refused, and so is a cutechess option we cannot honour.
    let output = tessera(&["match-merge".to_string(), files[0].display().to_string()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("missing"));
    let output = tessera(&words("match -engine cmd=a -engine cmd=b -bookmode"));
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("-bookmode"));
    std::fs::remove_dir_all(&dir).ok();
}
