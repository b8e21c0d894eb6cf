//! Progress of a long command, phase by phase: "phase 3 of 5: optimal play", each phase with a
//! bar of its own whose total the work sets before it starts, and an ETA from the rate
//! measured in that phase.
//!
//! Why phases: one bar for a whole `report` had its total grow each time a section began
//! (702 → 2442 → 2520 matchups), so its ETA meant nothing. A phase's work (the matrices, the
//! fair-cost bisections, the optimal-play solves) sets its bar's length when it starts and
//! only advances it after that, so within a phase the total stays put.
//!
//! On a terminal stderr the bar is drawn by indicatif. Elsewhere (CI, a log file) nothing is
//! drawn; instead one plain line goes to stderr every few seconds (`POINTSWORTH_PROGRESS_SECONDS`,
//! default 5) and one when a phase ends: what, how far, elapsed, ETA. A `--shard` run and a
//! merge print the same lines (a shard's progress is still progress).
//!
//! Layer: commands (see [`crate::commands`]).

use std::io::{IsTerminal, Write as _};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Seconds between two plain progress lines when stderr is not a terminal.
const DEFAULT_EVERY: f64 = 5.0;

/// A command's phases and the bar of the one running.
pub(crate) struct Progress {
    /// What runs, e.g. `report guns-n-grenades`.
    what: String,
    phases: Vec<String>,
    started: Instant,
    plain: bool,
    current: Option<Phase>,
}

/// The phase running: its number (from 1), bar, start and plain-line ticker.
struct Phase {
    number: usize,
    counted: bool,
    bar: ProgressBar,
    started: Instant,
    ticker: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
}

impl Progress {
    /// Progress of `what` through `phases`, in order. Plain lines when stderr is not a terminal.
    pub(crate) fn new(what: impl Into<String>, phases: &[&str]) -> Self {
        Progress {
            what: what.into(),
            phases: phases.iter().map(|p| p.to_string()).collect(),
            started: Instant::now(),
            plain: !std::io::stderr().is_terminal(),
            current: None,
        }
    }

    /// Ends the phase running (if any) and starts `name`, which must be one of the phases;
    /// returns its bar, of length 0 until the work sets it (once, before it advances).
    pub(crate) fn phase(&mut self, name: &str) -> ProgressBar {
        self.start(name, true)
    }

    /// [`Progress::phase`] for work that cannot count its total before it starts (a ruleset's
    /// studies, whose searches run one after another): the bar shows only what is done and the
    /// time, with no total and no ETA.
    pub(crate) fn phase_uncounted(&mut self, name: &str) -> ProgressBar {
        self.start(name, false)
    }

    /// [`Progress::phase_uncounted`] for work that draws bars of its own on a terminal (the
    /// report's skirmishes, one bar per tactic or mission): nothing is drawn for the phase
    /// there, and off a terminal its plain lines say how long it has run.
    pub(crate) fn phase_with_own_bars(&mut self, name: &str) {
        self.start_drawn(name, false, false);
    }

    fn start(&mut self, name: &str, counted: bool) -> ProgressBar {
        self.start_drawn(name, counted, true)
    }

    fn start_drawn(&mut self, name: &str, counted: bool, draw: bool) -> ProgressBar {
        self.end_phase();
        let number = self.phases.iter().position(|p| p == name).map_or(self.phases.len(), |i| i + 1);
        let label = self.label(number);
        let bar = if self.plain || !draw {
            // A length of 0, not none: `inc_length` adds nothing to an unknown length.
            ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden())
        } else {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            let template = if counted {
                "{prefix} {msg} [{bar:30}] {pos}/{len} ({elapsed}, eta {eta})"
            } else {
                "{prefix} {msg}: {pos} done ({elapsed})"
            };
            bar.set_style(ProgressStyle::with_template(template).expect("valid template").progress_chars("=> "));
            bar
        };
        bar.set_prefix(label);
        let started = Instant::now();
        let ticker = self.plain.then(|| {
            let stop = Arc::new(AtomicBool::new(false));
            let line =
                LineMaker { what: self.what.clone(), label: self.label(number), run_started: self.started, counted };
            let (bar, flag) = (bar.clone(), stop.clone());
            let every = Duration::from_secs_f64(every_seconds());
            let handle = std::thread::spawn(move || {
                let mut next = started + every;
                while !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(50).min(every));
                    if Instant::now() >= next && !flag.load(Ordering::Relaxed) {
                        line.print(&bar, started, false);
                        next += every;
                    }
                }
            });
            (stop, handle)
        });
        self.current = Some(Phase { number, bar: bar.clone(), started, ticker, counted });
        bar
    }

    /// "guns-n-grenades, phase 3 of 5: optimal play".
    fn label(&self, number: usize) -> String {
        let name = self.phases.get(number.wrapping_sub(1)).map_or("", String::as_str);
        format!("phase {number} of {}: {name}", self.phases.len())
    }

    /// Ends the phase running: clears its bar, or prints its last plain line.
    fn end_phase(&mut self) {
        let Some(p) = self.current.take() else { return };
        if let Some((stop, handle)) = p.ticker {
            stop.store(true, Ordering::Relaxed);
            let _ = handle.join();
            let line = LineMaker {
                what: self.what.clone(),
                label: self.label(p.number),
                run_started: self.started,
                counted: p.counted,
            };
            line.print(&p.bar, p.started, true);
        }
        p.bar.finish_and_clear();
    }

    /// Ends the last phase.
    pub(crate) fn finish(mut self) {
        self.end_phase();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // An early return (an error) still stops the ticker thread.
        if let Some(p) = self.current.take() {
            if let Some((stop, handle)) = p.ticker {
                stop.store(true, Ordering::Relaxed);
                let _ = handle.join();
            }
            p.bar.finish_and_clear();
        }
    }
}

/// `POINTSWORTH_PROGRESS_SECONDS` when it is a number from 0.05 to 3600, else 5.
fn every_seconds() -> f64 {
    std::env::var("POINTSWORTH_PROGRESS_SECONDS")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| (0.05..=3600.0).contains(s))
        .unwrap_or(DEFAULT_EVERY)
}

/// Makes the plain progress lines of one phase.
struct LineMaker {
    what: String,
    label: String,
    run_started: Instant,
    /// Whether the phase's total is known ([`Progress::phase`]); else only the count done.
    counted: bool,
}

impl LineMaker {
    /// `pointsworth report guns-n-grenades: phase 2 of 5: fair costs: 1,234/5,000 (25%),
    /// 12 s in phase, 40 s in all, eta 36 s`; at the end of a phase `done` instead of the ETA.
    fn print(&self, bar: &ProgressBar, phase_started: Instant, done: bool) {
        let (pos, len) = (bar.position(), bar.length().unwrap_or(0));
        let in_phase = phase_started.elapsed().as_secs_f64();
        let count = if !self.counted || len == 0 {
            format!("{} done", crate::format::thousands(pos))
        } else {
            format!(
                "{}/{} ({:.0}%)",
                crate::format::thousands(pos),
                crate::format::thousands(len),
                100.0 * pos as f64 / len as f64
            )
        };
        let tail = if done {
            "done".to_string()
        } else if self.counted && pos > 0 && len > pos {
            format!("eta {}", seconds(in_phase * (len - pos) as f64 / pos as f64))
        } else if self.counted {
            "eta unknown".to_string()
        } else {
            "no total known".to_string()
        };
        let msg = bar.message();
        let msg = if msg.is_empty() { String::new() } else { format!(" ({msg})") };
        let line = format!(
            "pointsworth {}: {}{msg}: {count}, {} in phase, {} in all, {tail}\n",
            self.what,
            self.label,
            seconds(in_phase),
            seconds(self.run_started.elapsed().as_secs_f64())
        );
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }
}

/// `7 s`, `3 m 05 s`, `1 h 02 m`.
fn seconds(s: f64) -> String {
    let s = s.max(0.0).round() as u64;
    if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} m {:02} s", s / 60, s % 60)
    } else {
        format!("{} h {:02} m", s / 3600, s % 3600 / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::seconds;

    #[test]
    fn durations_read_as_seconds_minutes_hours() {
        assert_eq!(seconds(7.4), "7 s");
        assert_eq!(seconds(185.0), "3 m 05 s");
        assert_eq!(seconds(3720.0), "1 h 02 m");
    }
}
