//! The GradBench tool: GradBench's messages on stdin, one response per line on stdout.

use std::io::{self, BufRead, Write};

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let response = micrograd_gradbench::protocol::respond(&line);
        writeln!(stdout, "{response}")?;
        stdout.flush()?;
    }
    Ok(())
}
