//! A streaming Server-Sent Events parser: bytes in (in any chunking), frames out.

/// The largest frame [`SseParser::new`] accepts: 256 KiB of field lines.
pub const MAX_FRAME: usize = 256 * 1024;

/// One dispatched SSE frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseFrame {
    /// The frame's `id:` field, if it had one.
    pub id: Option<String>,
    /// The frame's `event:` field, if it had one.
    pub event: Option<String>,
    /// The `data:` fields joined with `\n`.
    pub data: String,
}

/// Turns a byte stream into [`SseFrame`]s, following the WHATWG rules: lines end with
/// `\n`, `\r\n` or `\r`; a blank line ends a frame; a frame is dispatched only if it had a
/// `data` field; lines starting with `:` are comments; one space after the colon is dropped;
/// unknown fields (and `retry`) are ignored; an `id` containing NUL is ignored. A frame
/// larger than the limit is dropped whole and parsing resumes at the next frame.
#[derive(Debug)]
pub struct SseParser {
    limit: usize,
    line: Vec<u8>,
    /// Bytes seen on the current line, kept or not: zero means a blank line.
    line_seen: usize,
    /// The last byte was `\r`: a `\n` right after it belongs to the same line end.
    after_cr: bool,
    /// Bytes of the current frame's finished lines.
    frame_bytes: usize,
    /// The current frame went over the limit; skip to the next blank line.
    skipping: bool,
    frame: SseFrame,
    has_data: bool,
    dropped: u64,
}

impl Default for SseParser {
    fn default() -> Self {
        Self::new()
    }
}

impl SseParser {
    /// A parser that drops frames over [`MAX_FRAME`].
    pub fn new() -> Self {
        Self::with_limit(MAX_FRAME)
    }

    /// A parser that drops frames over `limit` bytes.
    pub fn with_limit(limit: usize) -> Self {
        Self {
            limit,
            line: Vec::new(),
            line_seen: 0,
            after_cr: false,
            frame_bytes: 0,
            skipping: false,
            frame: SseFrame::default(),
            has_data: false,
            dropped: 0,
        }
    }

    /// How many oversized frames were dropped so far.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Feeds the next bytes; returns the frames they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<SseFrame> {
        let mut out = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            if std::mem::take(&mut self.after_cr) && rest[0] == b'\n' {
                rest = &rest[1..];
                continue;
            }
            match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(end) => {
                    self.extend_line(&rest[..end]);
                    self.after_cr = rest[end] == b'\r';
                    rest = &rest[end + 1..];
                    self.end_line(&mut out);
                }
                None => {
                    self.extend_line(rest);
                    rest = &[];
                }
            }
        }
        out
    }

    fn extend_line(&mut self, bytes: &[u8]) {
        self.line_seen += bytes.len();
        if self.skipping {
            return;
        }
        if self.frame_bytes + self.line.len() + bytes.len() > self.limit {
            self.skipping = true;
            self.dropped += 1;
            self.line = Vec::new();
            self.reset();
            return;
        }
        self.line.extend_from_slice(bytes);
    }

    fn end_line(&mut self, out: &mut Vec<SseFrame>) {
        if std::mem::take(&mut self.line_seen) == 0 {
            if std::mem::take(&mut self.skipping) {
                self.reset();
            } else if self.has_data {
                let frame = std::mem::take(&mut self.frame);
                self.reset();
                out.push(frame);
            } else {
                self.reset();
            }
            return;
        }
        if self.skipping {
            self.line.clear();
            return;
        }
        self.frame_bytes += self.line.len() + 1;
        let line = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        self.field(&line);
    }

    fn field(&mut self, line: &str) {
        let (name, value) = match line.split_once(':') {
            Some((name, value)) => (name, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match name {
            "" => {} // a comment
            "data" => {
                if self.has_data {
                    self.frame.data.push('\n');
                }
                self.frame.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.frame.event = Some(value.to_owned()),
            "id" if !value.contains('\0') => self.frame.id = Some(value.to_owned()),
            _ => {}
        }
    }

    fn reset(&mut self) {
        self.frame = SseFrame::default();
        self.has_data = false;
        self.frame_bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(id: Option<&str>, event: Option<&str>, data: &str) -> SseFrame {
        SseFrame { id: id.map(Into::into), event: event.map(Into::into), data: data.into() }
    }

    fn parse_in_pieces(input: &[u8], piece: usize) -> Vec<SseFrame> {
        let mut parser = SseParser::new();
        input.chunks(piece).flat_map(|chunk| parser.push(chunk)).collect()
    }

    #[test]
    fn a_whole_frame() {
        let frames = SseParser::new().push(b"id: b:1\nevent: registered\ndata: {\"a\":1}\n\n");
        assert_eq!(frames, vec![frame(Some("b:1"), Some("registered"), r#"{"a":1}"#)]);
    }

    #[test]
    fn every_split_of_every_line_ending_gives_the_same_frames() {
        let expected = vec![
            frame(Some("b:1"), Some("e"), "one"),
            frame(None, None, "two\nlines"),
            frame(Some("b:3"), None, "é"),
        ];
        let lf =
            "id: b:1\nevent: e\ndata: one\n\n: keep-alive\n\ndata: two\ndata: lines\n\nid: b:3\ndata:é\n\n";
        for ending in ["\n", "\r\n", "\r"] {
            let input = lf.replace('\n', ending);
            for piece in 1..=input.len() {
                assert_eq!(
                    parse_in_pieces(input.as_bytes(), piece),
                    expected,
                    "{ending:?} in pieces of {piece}"
                );
            }
        }
    }

    #[test]
    fn crlf_split_between_cr_and_lf_is_one_line_end() {
        let mut parser = SseParser::new();
        assert!(parser.push(b"data: x\r").is_empty());
        assert!(parser.push(b"\n").is_empty(), "the \\n ends the same line, it is not a blank line");
        assert_eq!(parser.push(b"\r"), vec![frame(None, None, "x")]);
        assert_eq!(parser.push(b"\ndata: y\n\n"), vec![frame(None, None, "y")]);
    }

    #[test]
    fn comments_fields_and_frames_without_data() {
        let input = b": hello\nretry: 10\nunknown: 1\nid: b:1\n\nevent: lonely\n\ndata\ndata:  two spaces\nid: a\0b\n\n";
        let frames = SseParser::new().push(input);
        assert_eq!(frames, vec![frame(None, None, "\n two spaces")]);
    }

    #[test]
    fn an_unfinished_frame_waits() {
        let mut parser = SseParser::new();
        assert!(parser.push(b"data: x\n").is_empty());
        assert_eq!(parser.push(b"\n"), vec![frame(None, None, "x")]);
    }

    #[test]
    fn oversized_frames_are_dropped_and_parsing_goes_on() {
        let mut parser = SseParser::with_limit(32);
        let big = format!("id: big\ndata: {}\n\n", "x".repeat(100));
        let mut input = big.clone().into_bytes();
        input.extend_from_slice(b"data: small\n\n");
        // many short lines adding up over the limit are as oversized as one long line
        input.extend_from_slice("data: 1234567890\n".repeat(5).as_bytes());
        input.extend_from_slice(b"\nid: after\ndata: ok\n\n");
        let frames: Vec<SseFrame> = input.chunks(7).flat_map(|c| parser.push(c)).collect();
        assert_eq!(frames, vec![frame(None, None, "small"), frame(Some("after"), None, "ok")]);
        assert_eq!(parser.dropped(), 2);
        assert!(parser.line.capacity() <= 64, "the line buffer did not grow with the big frame");
    }
}
