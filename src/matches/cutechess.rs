//! `tessera match` in cutechess-cli's words: `-engine cmd=X name=Y proto=uci -each tc=10+0.1
//! -rounds N -games 2 -openings file=F format=epd order=random -pgnout F -sprt elo0=0 elo1=5
//! alpha=0.05 beta=0.05 -concurrency N`, translated into our own options before clap reads them,
//! so that scripts written for cutechess-cli run unchanged.
//!
//! Options that change nothing here are accepted and ignored (each opening is always played
//! twice with colours swapped, crashed engines are always restarted); options we cannot honour
//! are refused with their name, never silently dropped.

use std::collections::BTreeMap;

/// Why a cutechess-style command line could not be translated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CutechessError {
    /// An option `tessera match` has no equivalent for.
    #[error("cutechess option `{0}` is not supported by tessera match (see docs/match.md)")]
    Unsupported(String),
    /// An option's value is not one we can use.
    #[error("cutechess option `{option}`: {reason}")]
    BadValue {
        /// The option (`-openings`, `-engine`…).
        option: String,
        /// What is wrong.
        reason: String,
    },
}

/// Single-dash options of cutechess-cli that [`translate`] reads.
const KNOWN: [&str; 22] = [
    "-engine",
    "-each",
    "-variant",
    "-rounds",
    "-games",
    "-openings",
    "-pgnout",
    "-sprt",
    "-concurrency",
    "-draw",
    "-resign",
    "-maxmoves",
    "-srand",
    "-repeat",
    "-recover",
    "-tournament",
    "-ratinginterval",
    "-outcomeinterval",
    "-event",
    "-site",
    "-wait",
    "-debug",
];

/// Whether `word` is an option in cutechess's single-dash form (`-engine`), not ours (`--engine`),
/// a negative number, or clap's `-h` / `-V`.
fn is_single_dash(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next() == Some('-') && chars.next().is_some_and(|c| c.is_ascii_alphabetic()) && !["-h", "-V"].contains(&word)
}

/// Whether `word` starts another option of either form.
fn is_option(word: &str) -> bool {
    word.starts_with("--") || is_single_dash(word)
}

/// Whether the arguments after `tessera match` use cutechess's form (any single-dash option).
#[must_use]
pub fn is_cutechess_form(args: &[String]) -> bool {
    args.iter().any(|word| is_single_dash(word))
}

/// What one `-engine` (or `-each`) said, key by key, in the order given.
type Settings = Vec<(String, String)>;

/// Translates cutechess-style arguments (those after `tessera match`) into ours. Options already
/// in our form (`--game go`) pass through unchanged.
///
/// # Errors
/// [`CutechessError`] for an option we cannot honour or a value we cannot read.
pub fn translate(args: &[String]) -> Result<Vec<String>, CutechessError> {
    let mut ours: Vec<String> = Vec::new();
    let mut engines: Vec<Settings> = Vec::new();
    let mut each: Settings = Vec::new();
    let (mut rounds, mut games) = (None, None);
    let mut game_given = args.iter().any(|word| word == "--game" || word.starts_with("--game="));
    let mut position = 0;
    while position < args.len() {
        let option = args[position].as_str();
        let mut end = position + 1;
        while end < args.len() && !is_option(&args[end]) {
            end += 1;
        }
        let values = &args[position + 1..end];
        position = end;
        if !is_single_dash(option) {
            // Ours, or a stray value: clap will judge it.
            ours.push(option.to_string());
            ours.extend(values.iter().cloned());
            continue;
        }
        if !KNOWN.contains(&option) {
            return Err(CutechessError::Unsupported(option.to_string()));
        }
        let bad = |reason: &str| CutechessError::BadValue { option: option.to_string(), reason: reason.to_string() };
        let single = || match values {
            [value] => Ok(value.as_str()),
            _ => Err(bad("expects one value")),
        };
        let number = || single()?.parse::<u32>().map_err(|_| bad("expects a whole number"));
        match option {
            "-engine" => engines.push(pairs(option, values)?),
            "-each" => each.extend(pairs(option, values)?),
            "-rounds" => rounds = Some(number()?),
            "-games" => games = Some(number()?),
            "-concurrency" => push(&mut ours, "--concurrency", number()?.to_string()),
            "-pgnout" => match values {
                // `min` and `fi` shorten cutechess's PGN; ours has one form.
                [file, rest @ ..] if rest.iter().all(|word| word == "min" || word == "fi") => {
                    push(&mut ours, "--record", file.clone());
                }
                _ => return Err(bad("expects a file, then optionally `min` or `fi`")),
            },
            "-sprt" => push(&mut ours, "--sprt", values.join(" ")),
            "-maxmoves" => push(&mut ours, "--max-plies", (2 * number()?).to_string()),
            "-srand" => push(&mut ours, "--openings-seed", single()?.to_string()),
            "-variant" => {
                let (game, rule) = match single()? {
                    "standard" | "fischerandom" => ("chess", None),
                    "xiangqi" => ("xiangqi", None),
                    "gomoku" => ("gomoku", Some("standard")),
                    "gomokufreestyle" => ("gomoku", Some("freestyle")),
                    _ => return Err(bad("tessera plays standard, fischerandom, xiangqi, gomoku, gomokufreestyle")),
                };
                if !game_given {
                    push(&mut ours, "--game", game.to_string());
                    game_given = true;
                }
                if let Some(rule) = rule {
                    push(&mut ours, "--rule", rule.to_string());
                }
            }
            "-openings" => openings(&mut ours, &pairs(option, values)?).map_err(|reason| bad(&reason))?,
            "-draw" => adjudication(&mut ours, &pairs(option, values)?, true).map_err(|reason| bad(&reason))?,
            "-resign" => adjudication(&mut ours, &pairs(option, values)?, false).map_err(|reason| bad(&reason))?,
            "-repeat" if values.is_empty() || values == ["2"] => {}
            "-repeat" => return Err(bad("tessera always plays each opening twice, colours swapped")),
            "-tournament" if values.len() == 1 && ["round-robin", "gauntlet"].contains(&values[0].as_str()) => {}
            "-tournament" => return Err(bad("two engines play round-robin or gauntlet alike; nothing else")),
            // Presentation, logging and pacing: no effect on the games or their results.
            _ => {}
        }
    }
    if !game_given {
        // cutechess-cli plays standard chess unless told otherwise.
        push(&mut ours, "--game", "chess".to_string());
    }
    if rounds.is_some() || games.is_some() {
        // cutechess plays `games` games per encounter in each round: two engines, one encounter.
        push(&mut ours, "--games", (rounds.unwrap_or(1) * games.unwrap_or(1)).to_string());
    }
    engine_options(&mut ours, &engines, &each)?;
    Ok(ours)
}

fn push(ours: &mut Vec<String>, option: &str, value: String) {
    ours.push(option.to_string());
    ours.push(value);
}

/// `key=value` words.
fn pairs(option: &str, values: &[String]) -> Result<Settings, CutechessError> {
    values
        .iter()
        .map(|word| {
            word.split_once('=').map(|(key, value)| (key.to_string(), value.to_string())).ok_or_else(|| {
                CutechessError::BadValue { option: option.to_string(), reason: format!("`{word}` is not key=value") }
            })
        })
        .collect()
}

/// `-openings file=F format=epd order=random plies=N policy=…`.
fn openings(ours: &mut Vec<String>, settings: &Settings) -> Result<(), String> {
    for (key, value) in settings {
        match (key.as_str(), value.as_str()) {
            ("file", file) => push(ours, "--openings", file.to_string()),
            // Our opening files are lines (EPD/FEN or moves): cutechess's `epd` format.
            ("format", "epd") => {}
            ("format", other) => return Err(format!("format={other}: tessera reads EPD/FEN or move lines only")),
            ("order", "random") => push(ours, "--openings-order", "random".to_string()),
            ("order", "sequential") => {}
            // Both games of a pair always share an opening: cutechess's `round` and `default` alike.
            ("policy", "default" | "round" | "encounter") => {}
            (other, _) => return Err(format!("{other}= is not supported")),
        }
    }
    Ok(())
}

/// `-draw movenumber=N movecount=M score=S` or `-resign movecount=M score=S [twosided=true]`.
fn adjudication(ours: &mut Vec<String>, settings: &Settings, draw: bool) -> Result<(), String> {
    let number = |value: &str| value.parse::<i64>().map_err(|_| format!("`{value}` is not a whole number"));
    for (key, value) in settings {
        match (key.as_str(), draw) {
            ("movenumber", true) => push(ours, "--draw-after", (2 * number(value)?).to_string()),
            ("movecount", true) => push(ours, "--draw-moves", number(value)?.to_string()),
            ("score", true) => push(ours, "--draw-score", number(value)?.to_string()),
            ("movecount", false) => push(ours, "--resign-moves", number(value)?.to_string()),
            ("score", false) => push(ours, "--resign-score", number(value)?.to_string()),
            // Tessera resigns a game only when both engines agree: cutechess's `twosided=true`.
            ("twosided", false) if value == "true" => {}
            ("twosided", false) => {
                return Err("tessera adjudicates only when both engines agree (twosided=true)".into())
            }
            (other, _) => return Err(format!("{other}= is not supported")),
        }
    }
    Ok(())
}

/// The two `--engine` options and `--tc`/`--margin` from `-engine` and `-each` settings.
fn engine_options(ours: &mut Vec<String>, engines: &[Settings], each: &Settings) -> Result<(), CutechessError> {
    let bad = |reason: String| CutechessError::BadValue { option: "-engine".into(), reason };
    let mut clocks: Vec<BTreeMap<String, String>> = Vec::new();
    for engine in engines {
        let mut words = Vec::new();
        let mut clock = BTreeMap::new();
        // `-each` first: a key an engine gives itself wins, as in cutechess.
        let mut merged: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (key, value) in each.iter().chain(engine) {
            let entry = merged.entry(key.as_str()).or_default();
            if key != "arg" {
                entry.clear();
            }
            entry.push(value.as_str());
        }
        for (key, values) in merged {
            for value in values {
                match key {
                    "cmd" | "name" | "dir" | "proto" | "arg" if !value.contains(char::is_whitespace) => {
                        words.push(format!("{key}={value}"));
                    }
                    "cmd" | "name" | "dir" | "proto" | "arg" => {
                        return Err(bad(format!("{key}={value}: tessera takes one word per value")));
                    }
                    "tc" | "st" | "depth" | "nodes" | "timemargin" => {
                        clock.insert(key.to_string(), value.to_string());
                    }
                    // Engines are restarted after a failure anyway.
                    "restart" => {}
                    _ => match key.strip_prefix("option.") {
                        // Our engine options write a space in a name as `_` (`option.Skill_Level=3`).
                        Some(name) if !value.contains(char::is_whitespace) => {
                            words.push(format!("option.{}={value}", name.replace(' ', "_")));
                        }
                        Some(_) => return Err(bad(format!("{key}={value}: option values are one word"))),
                        None => return Err(CutechessError::Unsupported(format!("-engine {key}="))),
                    },
                }
            }
        }
        push(ours, "--engine", words.join(" "));
        clocks.push(clock);
    }
    if let Some(first) = clocks.first() {
        if clocks.iter().any(|clock| clock != first) {
            return Err(bad("both engines must play the same time control".into()));
        }
        if let Some(margin) = first.get("timemargin") {
            push(ours, "--margin", margin.clone());
        }
        if let Some(tc) = time_control(first).map_err(bad)? {
            push(ours, "--tc", tc);
        }
    }
    Ok(())
}

/// Our `--tc` from cutechess's `tc=`, `st=`, `depth=` and `nodes=` (one of them, or `tc=inf`
/// with a depth or node limit). `None` when none is given.
fn time_control(clock: &BTreeMap<String, String>) -> Result<Option<String>, String> {
    let tc = clock.get("tc").filter(|tc| tc.as_str() != "inf");
    let limits: Vec<String> = [
        tc.map(|tc| clock_text(tc)).transpose()?,
        clock.get("st").map(|st| format!("st={st}")),
        clock.get("depth").map(|depth| format!("depth={depth}")),
        clock.get("nodes").map(|nodes| format!("nodes={nodes}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    match limits.as_slice() {
        [] if clock.contains_key("tc") => Err("tc=inf needs depth= or nodes=".into()),
        [] => Ok(None),
        [one] => Ok(Some(one.clone())),
        _ => Err(format!("one limit at a time, not {}", limits.join(" and "))),
    }
}

/// cutechess's `[moves/]time[+increment]` with time as seconds or `minutes:seconds`, in seconds.
fn clock_text(tc: &str) -> Result<String, String> {
    let (moves, rest) = tc.split_once('/').map_or((None, tc), |(moves, rest)| (Some(moves), rest));
    let (base, increment) = rest.split_once('+').map_or((rest, None), |(base, increment)| (base, Some(increment)));
    let base = match base.split_once(':') {
        Some((minutes, seconds)) => {
            let minutes: f64 = minutes.parse().map_err(|_| format!("tc={tc}: bad minutes"))?;
            let seconds: f64 = seconds.parse().map_err(|_| format!("tc={tc}: bad seconds"))?;
            (minutes * 60.0 + seconds).to_string()
        }
        None => base.to_string(),
    };
    let moves = moves.map_or_else(String::new, |moves| format!("{moves}/"));
    Ok(increment.map_or_else(|| format!("{moves}{base}"), |increment| format!("{moves}{base}+{increment}")))
}

#[cfg(test)]
mod tests;
