//! Ctrl-C: stop within a second, never leaving a half-written or temporary file behind.
//!
//! The binary calls [`install`] once. On SIGINT (Ctrl-C) or SIGTERM a watcher thread sets a
//! process-wide flag, waits for the file writes already under way to finish (each is a write of
//! a temporary file and a rename, milliseconds; see [`crate::report::atomic`]), lets no new one
//! start, prints one line and exits with 128 + the signal number (130 for Ctrl-C).
//!
//! Why a watcher rather than a flag polled by the simulation loops: a run spends its time in
//! many places (batches of duels and skirmishes, the fair-cost bisection, the exact solvers,
//! chart drawing), and a poll in each would need a way out of every caller for a bound that
//! still fails in the first place without one. Exiting from the watcher bounds the stop in
//! every command at the time one file takes to write, and costs the hot loops nothing. What
//! matters on the way out is only the files: every output is written through
//! [`crate::report::atomic`], which holds a [`WriteGuard`] from the moment its temporary file
//! is named until it is renamed into place or removed, so the exit waits for those and
//! nothing else. Files written earlier in the run stay as written (each complete), and files
//! not yet reached keep their previous content.
//!
//! A second Ctrl-C while the watcher waits exits at once.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::time::{Duration, Instant};

/// The process's gate: every output file passes through it.
static GATE: Gate = Gate::new();

/// A stop flag and a count of the file writes under way (temporary file named but not yet
/// renamed or removed).
#[derive(Debug)]
struct Gate {
    cancelled: AtomicBool,
    in_flight: AtomicUsize,
}

impl Gate {
    const fn new() -> Gate {
        Gate { cancelled: AtomicBool::new(false), in_flight: AtomicUsize::new(0) }
    }

    fn enter(&'static self) -> WriteGuard {
        self.in_flight.fetch_add(1, SeqCst);
        if self.cancelled.load(SeqCst) {
            self.in_flight.fetch_sub(1, SeqCst);
            loop {
                std::thread::park(); // the watcher is about to exit the process
            }
        }
        WriteGuard(self)
    }

    fn stop(&self, limit: Duration) -> bool {
        self.cancelled.store(true, SeqCst);
        let start = Instant::now();
        while self.in_flight.load(SeqCst) > 0 {
            if start.elapsed() >= limit {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }
}

/// Whether a stop was asked for (Ctrl-C or SIGTERM).
pub fn requested() -> bool {
    GATE.cancelled.load(SeqCst)
}

/// Held by a file write from the naming of its temporary file until the rename (or removal):
/// the exit waits until none is held. Asked for after a stop was decided, it never comes (the
/// thread waits for the exit), so no file is begun once the stop is decided.
#[derive(Debug)]
pub struct WriteGuard(&'static Gate);

/// Begins a file write: see [`WriteGuard`].
pub fn begin_write() -> WriteGuard {
    GATE.enter()
}

impl Drop for WriteGuard {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, SeqCst);
    }
}

/// Marks the stop as asked for and waits (at most `limit`) until no file write is under way.
/// Returns whether every write finished in time. Once this is called, no new write begins.
pub fn stop_writes(limit: Duration) -> bool {
    GATE.stop(limit)
}

/// Installs the Ctrl-C / SIGTERM handling described in the module docs. Call once, from the
/// binary (a library user keeps the default behaviour of signals).
#[cfg(unix)]
pub fn install() -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use std::sync::Arc;

    // A second signal while the watcher waits for a write exits at once: the flag is already set.
    let again = Arc::new(AtomicBool::new(false));
    for sig in [SIGINT, SIGTERM] {
        signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&again))?;
    }
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    std::thread::Builder::new().name("signals".into()).spawn(move || {
        if let Some(sig) = signals.forever().next() {
            again.store(true, SeqCst);
            // A write takes milliseconds; past a few seconds the disk is stuck, and waiting
            // longer would break the promise to stop.
            let clean = stop_writes(Duration::from_secs(3));
            let name = if sig == SIGINT { "Ctrl-C" } else { "SIGTERM" };
            let newline = if std::io::IsTerminal::is_terminal(&std::io::stderr()) { "\n" } else { "" };
            if clean {
                eprintln!("{newline}interrupted ({name}): stopped; no file was left half written");
            } else {
                eprintln!("{newline}interrupted ({name}): stopped while a file write was still under way");
            }
            std::process::exit(128 + sig);
        }
    })?;
    Ok(())
}

/// Elsewhere the platform's default (the process ends; atomic writes still leave no file
/// half written, though a temporary file may remain).
#[cfg(not(unix))]
pub fn install() -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_waits_for_writes_under_way_and_blocks_new_ones() {
        // A gate of its own: stopping the process's gate would stall other tests' writes.
        let gate: &'static Gate = Box::leak(Box::new(Gate::new()));
        let guard = gate.enter();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            drop(guard);
        });
        assert!(!gate.stop(Duration::from_millis(20)), "a held guard keeps the stop waiting");
        let start = Instant::now();
        assert!(gate.stop(Duration::from_secs(5)));
        assert!(start.elapsed() < Duration::from_secs(2));
        writer.join().unwrap();
        // A write begun after the stop never gets its guard.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _g = gate.enter();
            tx.send(()).unwrap();
        });
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
        assert_eq!(gate.in_flight.load(SeqCst), 0);
        assert!(!requested(), "the process's gate is untouched");
    }
}
