//! `take5 completions SHELL` and `take5 man` come from the command line's definition: every
//! subcommand is in them.

use crate::common;

const SUBCOMMANDS: [&str; 8] = [
    "play",
    "check",
    "verify",
    "tournament",
    "stats",
    "tune",
    "selftest",
    "completions",
];

#[test]
fn the_bash_completions_are_a_valid_script_naming_every_subcommand() {
    let output = common::take5(&["completions", "bash"]);
    assert!(output.status.success());
    let script = String::from_utf8(output.stdout).unwrap();
    for name in SUBCOMMANDS {
        assert!(script.contains(name), "{name}");
    }
    let path = std::env::temp_dir().join(format!("take5-completions-{}.bash", std::process::id()));
    std::fs::write(&path, &script).unwrap();
    let checked = std::process::Command::new("bash")
        .arg("-n")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
}

#[test]
fn every_shell_gets_a_script() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let output = common::take5(&["completions", shell]);
        assert!(output.status.success(), "{shell}");
        assert!(
            String::from_utf8_lossy(&output.stdout).contains("selftest"),
            "{shell}"
        );
    }
    assert_eq!(
        common::take5(&["completions", "tcsh"]).status.code(),
        Some(2)
    );
}

#[test]
fn the_man_page_names_every_subcommand_and_the_folder_gets_a_page_each() {
    let output = common::take5(&["man"]);
    assert!(output.status.success());
    let page = String::from_utf8(output.stdout).unwrap();
    assert!(page.contains(".TH take5 1"), "{page}");
    for name in SUBCOMMANDS {
        assert!(page.contains(name), "{name}");
    }
    let dir = std::env::temp_dir().join(format!("take5-man-{}", std::process::id()));
    let output = common::take5(&["man", "--dir", dir.to_str().unwrap()]);
    assert!(output.status.success());
    for name in SUBCOMMANDS {
        let page = std::fs::read_to_string(dir.join(format!("take5-{name}.1"))).unwrap();
        assert!(page.contains(&format!(".TH take5-{name} 1")), "{page}");
    }
    assert!(dir.join("take5.1").exists());
}
