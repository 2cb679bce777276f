//! Log lines captured while a test runs, to check what was (never) logged.

use std::sync::{Arc, Mutex};

/// A writer that keeps everything written to it; clones share the one buffer. Give a
/// `tracing_subscriber::fmt()` `.with_writer(move || logs.clone())`, then read
/// [`Captured::text`].
#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Captured {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
