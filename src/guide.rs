//! What `tessera engines` prints: each engine binary, its protocol, and how a GUI starts it.

use std::path::PathBuf;

/// One engine binary of the workspace.
struct EngineBinary {
    name: &'static str,
    game: &'static str,
    protocol: &'static str,
    set_up: &'static str,
}

const ENGINES: [EngineBinary; 5] = [
    EngineBinary {
        name: "tessera-uci",
        game: "chess (and Chess960)",
        protocol: "UCI",
        set_up: "Arena: Engines > Install New Engine, pick the file, type UCI. cutechess-cli: -engine cmd=PATH proto=uci. lichess-bot: engine.protocol: uci, engine.dir/name to PATH.",
    },
    EngineBinary {
        name: "tessera-ucci",
        game: "xiangqi",
        protocol: "UCCI, or UCI when the first command is `uci`",
        set_up: "XQWizard / BHGUI: add a UCCI engine with PATH. Pikafish-style UCI GUIs: add PATH as a UCI engine.",
    },
    EngineBinary {
        name: "pbrain-tessera",
        game: "gomoku / renju",
        protocol: "Gomocup pbrain",
        set_up: "Piskvork: Players > AI > select PATH (the name must start with pbrain-). Yixin-Board: Engine > Load, pick PATH.",
    },
    EngineBinary {
        name: "tessera-agi",
        game: "gomoku / renju",
        protocol: "AGI",
        set_up: "An AGI GUI: add PATH as an engine; it answers AGI with its name and settings.",
    },
    EngineBinary {
        name: "tessera-gtp",
        game: "go",
        protocol: "GTP v2",
        set_up: "Sabaki: Engines > Manage Engines > Add, path PATH. GoGui: Program > New Program, command PATH. gogui-twogtp / kgsGtp / gtp2ogs: use PATH as the engine command.",
    },
];

/// Prints each engine, whether it is built next to this program, and its GUI set-up.
pub fn print_engines() {
    let folder = std::env::current_exe().ok().and_then(|exe| exe.parent().map(PathBuf::from));
    let mut text = String::from("Tessera engines (each speaks its protocol on stdin/stdout):\n");
    for engine in &ENGINES {
        let file = format!("{}{}", engine.name, std::env::consts::EXE_SUFFIX);
        let path = folder.as_ref().map(|folder| folder.join(&file));
        let (status, shown) = match &path {
            Some(path) if path.exists() => ("built", path.display().to_string()),
            _ => ("not built yet", file),
        };
        text.push_str(&format!(
            "\n  {name}  [{status}]\n    game:     {game}\n    protocol: {protocol}\n    path:     {shown}\n    set-up:   {set_up}\n",
            name = engine.name,
            game = engine.game,
            protocol = engine.protocol,
            set_up = engine.set_up.replace("PATH", &shown),
        ));
    }
    text.push_str("\nDocs: docs/architecture.md and one page per game in docs/.\n");
    print!("{text}");
}
