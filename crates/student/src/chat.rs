//! The command-line conversation: questions checked locally before anything is sent, the
//! attributed answer, the ids on request, and the interactive loop (`/new`, `/help`,
//! `/quit`, end of input), generic over its input and outputs so tests drive it with
//! bytes.

use std::io::{self, BufRead, Write};

use crate::{Asked, Exchange, Student};

/// The longest question the Student sends, in characters (not bytes).
pub const MAX_QUESTION_CHARS: usize = 2_000;

/// Why a question was refused before anything was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    Empty,
    TooLong { chars: usize },
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Empty => write!(f, "not sent: the question is empty"),
            Refused::TooLong { chars } => write!(
                f,
                "not sent: the question is {chars} characters long; the limit is {MAX_QUESTION_CHARS}"
            ),
        }
    }
}

impl std::error::Error for Refused {}

/// The question to send (trimmed), or why it is refused: empty or whitespace only, or
/// over [`MAX_QUESTION_CHARS`] characters.
pub fn check_question(text: &str) -> Result<&str, Refused> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Refused::Empty);
    }
    let chars = text.chars().count();
    if chars > MAX_QUESTION_CHARS {
        return Err(Refused::TooLong { chars });
    }
    Ok(text)
}

/// Writes the attributed answer (`Agent · Specialist: text`, the specialist as the Hub's
/// `servedBy` named it) and, when `verbose`, the ids that trace it through the logs.
pub fn write_exchange(out: &mut impl Write, ex: &Exchange, verbose: bool) -> io::Result<()> {
    let who = match &ex.served_by {
        Some(s) if *s != ex.agent => format!("{} · {s}", ex.agent),
        _ => ex.agent.clone(),
    };
    writeln!(out, "{who}: {}", ex.reply_text)?;
    if verbose {
        if let Some(step) = &ex.step {
            writeln!(out, "student step {}", step.to_json())?;
        }
        let sent_context = ex.sent_context_id.as_deref().unwrap_or("(new)");
        writeln!(out, "sent  messageId={} contextId={sent_context}", ex.sent_message_id)?;
        writeln!(out, "reply messageId={} contextId={}", ex.reply_message_id, ex.context_id)?;
        if let Some(outcome) = &ex.outcome {
            writeln!(out, "outcome {outcome}")?;
        }
        if let Some((id, state)) = &ex.task {
            writeln!(out, "task  id={id} state={state}")?;
        }
    }
    Ok(())
}

/// Writes what the Student did with a question: the attributed answer, or its own reply
/// labelled as such (nothing was sent).
pub fn write_asked(out: &mut impl Write, asked: &Asked, verbose: bool) -> io::Result<()> {
    match asked {
        Asked::Sent(ex) => write_exchange(out, ex, verbose),
        Asked::Local(reply) => {
            writeln!(out, "Student: {}", reply.labelled())?;
            if verbose {
                writeln!(out, "student step {}", reply.step.to_json())?;
            }
            Ok(())
        }
    }
}

/// How the chat presents itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChatOptions {
    /// Show a greeting and a `you> ` prompt (on a terminal; not when input is piped).
    pub prompt: bool,
    /// Print the ids after each answer.
    pub verbose: bool,
}

const HELP: &str = "commands: /new starts a new conversation, /help shows this, /quit (or Ctrl+D) ends; \
anything else is a question";

/// Runs a conversation with `student`: one question per input line, every answer in the
/// same conversation (so a clarifying question is answered by typing the answer) until
/// `/new`. Ends at `/quit` or the end of the input. A refused or failed question prints one
/// line on `err` and the chat goes on. Fails only when the input or outputs fail.
///
/// Reading a line blocks the thread: the command line runs nothing else meanwhile.
pub async fn chat(
    student: &Student,
    mut input: impl BufRead,
    out: &mut impl Write,
    err: &mut impl Write,
    opts: ChatOptions,
) -> io::Result<()> {
    if opts.prompt {
        writeln!(out, "asking {}; /help lists commands, /quit or Ctrl+D ends", student.url())?;
    }
    let mut line = String::new();
    loop {
        if opts.prompt {
            write!(out, "you> ")?;
            out.flush()?;
        }
        line.clear();
        if input.read_line(&mut line)? == 0 {
            if opts.prompt {
                writeln!(out)?;
            }
            return Ok(());
        }
        let text = line.trim();
        match text {
            "/quit" | "/exit" => return Ok(()),
            "/help" => writeln!(out, "{HELP}")?,
            "/new" => {
                student.new_conversation();
                writeln!(out, "new conversation: the next question starts afresh")?;
            }
            cmd if cmd.starts_with('/') && !cmd.contains(char::is_whitespace) => {
                writeln!(err, "unknown command {cmd}; /help lists the commands")?;
            }
            _ => match check_question(text) {
                Err(refused) => writeln!(err, "{refused}")?,
                Ok(question) => match student.ask_own(question).await {
                    Ok(asked) => write_asked(out, &asked, opts.verbose)?,
                    Err(e) => writeln!(err, "error: could not ask the agent at {}: {e}", student.url())?,
                },
            },
        }
        out.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_are_checked_in_characters() {
        assert_eq!(check_question("  what is a limit?\n"), Ok("what is a limit?"));
        assert_eq!(check_question(" \t\n"), Err(Refused::Empty));
        // 2,000 two-byte characters are 4,000 bytes, and still within the limit
        let at_limit = "é".repeat(MAX_QUESTION_CHARS);
        assert!(check_question(&at_limit).is_ok());
        let over = "é".repeat(MAX_QUESTION_CHARS + 1);
        assert_eq!(check_question(&over), Err(Refused::TooLong { chars: 2_001 }));
        assert!(Refused::TooLong { chars: 2_001 }.to_string().contains("2001 characters"));
    }
}
