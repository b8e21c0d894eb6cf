//! `pointsworth completions SHELL` and `pointsworth man`: the command line's own description
//! (clap's) as a shell completion script (clap_complete) and as man pages (clap_mangen), so
//! both list exactly the subcommands and flags this binary has. And the hidden
//! `pointsworth readme-example`, which refreshes the README's generated example.
//!
//! Layer: commands (see [`crate::commands`]).

use clap::CommandFactory;

use super::common::{AppError, stdout_write};
use crate::cli::{Cli, CompletionsArgs, ManArgs, ReadmeExampleArgs};

/// Prints the completion script for `args.shell`.
pub fn completions(args: CompletionsArgs) -> Result<(), AppError> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "pointsworth", &mut out);
    stdout_write(&String::from_utf8_lossy(&out))
}

/// Prints the main man page, or writes `pointsworth.1` and `pointsworth-SUB.1` for every
/// subcommand into `args.out` (atomically; the directory is created if missing).
pub fn man(args: ManArgs) -> Result<(), AppError> {
    let cmd = Cli::command();
    let Some(dir) = args.out else {
        return stdout_write(&render(&cmd)?);
    };
    std::fs::create_dir_all(&dir)
        .map_err(|source| AppError::Io { context: format!("creating {}", dir.display()), source })?;
    let mut pages = vec![("pointsworth.1".to_string(), render(&cmd)?)];
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        // clap names a command with a `&'static str` (its `string` feature is off): one short
        // name per subcommand, once per run.
        let name: &'static str = Box::leak(format!("pointsworth-{}", sub.get_name()).into_boxed_str());
        pages.push((format!("{name}.1"), render(&sub.clone().name(name).bin_name(name))?));
    }
    let mut written = String::new();
    for (file, text) in pages {
        let path = dir.join(file);
        crate::report::write_atomic(&path, text.as_bytes())
            .map_err(|source| AppError::Io { context: format!("writing {}", path.display()), source })?;
        written.push_str(&format!("wrote {}\n", path.display()));
    }
    stdout_write(&written)
}

/// One man page (roff).
fn render(cmd: &clap::Command) -> Result<String, AppError> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut out)
        .map_err(|source| AppError::Io { context: "rendering the man page".into(), source })?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Rewrites the example block of `args.readme` from the report in `args.report`
/// ([`crate::report::readme`]); prints whether it changed.
pub fn readme_example(args: ReadmeExampleArgs) -> Result<(), AppError> {
    let example = crate::report::readme::example(&args.report)?;
    let text = crate::config::read_text(&args.readme)
        .map_err(|source| AppError::Io { context: format!("reading {}", args.readme.display()), source })?;
    let new = crate::report::readme::splice(&text, &example)?;
    if new == text {
        return stdout_write(&format!(
            "{}: the example is already {}'s\n",
            args.readme.display(),
            args.report.display()
        ));
    }
    crate::report::write_atomic(&args.readme, new.as_bytes())
        .map_err(|source| AppError::Io { context: format!("writing {}", args.readme.display()), source })?;
    stdout_write(&format!("{}: example refreshed from {}\n", args.readme.display(), args.report.display()))
}
