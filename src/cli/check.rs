//! `take5 check PATH...`: runs rule fixtures (docs/fixtures.md).

use super::Status;
use crate::fixture::{self, Fixture, FixtureError, Run, report};
use crate::visible::visible_lines;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Arguments of `take5 check`.
#[derive(Clone, Debug, clap::Args)]
pub struct CheckArgs {
    /// Fixture files, or folders searched recursively for *.yaml and *.yml (in sorted order).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// `text`: a PASS/FAIL line per fixture and a diff for each failure; `json`: one JSON object
    /// per fixture and line.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// With `text`, also print each fixture's full transcript (events and table after each step).
    #[arg(long)]
    pub transcript: bool,
    /// Show the fixture step by step, as `take5 show` shows a record (in the terminal viewer
    /// on a terminal, as plain text when piped); one fixture file.
    #[arg(long)]
    pub show: bool,
}

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Runs the fixtures and prints the report on stdout, a verdict per fixture (docs/fixtures.md);
/// a fixture that cannot be read or set up is an error on stderr (`take5: path:line:column:
/// ...`), and with `--format json` an `error` object of the report too. Exit status: 0 when all
/// pass, 1 when any fails, 2 when any cannot be read or parsed (that wins over 1).
pub fn run(args: &CheckArgs) -> Result<Status, super::CliError> {
    if args.show {
        return show(args);
    }
    Ok(run_to(
        args,
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
    )?)
}

/// `--show`: the one fixture given, step by step.
fn show(args: &CheckArgs) -> Result<Status, super::CliError> {
    let [path] = args.paths.as_slice() else {
        return Err(super::CliError::input("--show shows one fixture file"));
    };
    let shown = crate::show::load_fixture(path, crate::show::Hands::All)
        .map_err(|e| super::CliError::input(report::error(&e).trim_end()))?;
    super::show::present(&shown, None, false, false)?;
    Ok(Status::Passed)
}

/// [`run`], writing the report to `out` and the errors to `err`.
pub fn run_to(args: &CheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<Status> {
    let mut status = Status::Passed;
    for found in find_fixtures(&args.paths) {
        let result = found.and_then(|path| {
            let fixture = fixture::load(&path)?;
            let run = fixture::run(&fixture)?;
            Ok((fixture, run))
        });
        status = status.max(match &result {
            Ok((_, run)) if run.passed() => Status::Passed,
            Ok(_) => Status::Failed,
            Err(_) => Status::Unreadable,
        });
        if let Err(e) = &result {
            super::item_error(err, report::error(e).trim_end())?;
        }
        match args.format {
            Format::Json => writeln!(out, "{}", report::json(&result))?,
            Format::Text => text(out, &result, args.transcript)?,
        }
    }
    Ok(status)
}

/// The report of one fixture as text (nothing for one that cannot be read: an error, said on
/// stderr); what it quotes of the file (its name, values, lines) is made [`visible_lines`].
fn text(
    out: &mut dyn Write,
    result: &Result<(Fixture, Run), FixtureError>,
    transcript: bool,
) -> io::Result<()> {
    let Ok((fixture, run)) = result else {
        return Ok(());
    };
    let mut text = report::verdict(fixture, run);
    text.push('\n');
    if transcript {
        for line in report::transcript(fixture, run).lines() {
            text.push_str(&format!("  | {line}\n"));
        }
    } else if let Some(failure) = &run.failure {
        text.push_str(&report::diff(failure));
    }
    out.write_all(visible_lines(&text).as_bytes())
}

/// The fixture files named by `paths`: files as given, folders searched recursively for
/// `*.yaml` and `*.yml`, each folder's files in sorted order. A path that does not exist, or a
/// folder without fixtures, is an error in the list.
pub fn find_fixtures(paths: &[PathBuf]) -> Vec<Result<PathBuf, FixtureError>> {
    let mut found = Vec::new();
    for path in paths {
        let error = |message: String| FixtureError {
            path: path.clone(),
            at: None,
            message,
            excerpt: None,
        };
        if path.is_dir() {
            let mut files = Vec::new();
            match collect(path, &mut files) {
                Ok(()) if files.is_empty() => found.push(Err(error(
                    "no *.yaml or *.yml fixtures in this folder".into(),
                ))),
                Ok(()) => {
                    files.sort();
                    found.extend(files.into_iter().map(Ok));
                }
                Err(e) => found.push(Err(error(format!("cannot read the folder: {e}")))),
            }
        } else if path.exists() {
            found.push(Ok(path.clone()));
        } else {
            found.push(Err(error("no such file or folder".into())));
        }
    }
    found
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            collect(&path, files)?;
        } else if is_fixture(&path) && path.is_file() {
            files.push(path);
        }
    }
    Ok(())
}

fn is_fixture(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml")
    )
}
