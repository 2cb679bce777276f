//! A name (`I'm Alex Student`, `my name is …`, `me llamo …`) and an email address, read
//! only to fill an open form from the chat (an agent never prefills them).
//!
//! Subtle: a name is up to four capitalised words after the phrase, stopping at a pause,
//! at a word that is not a name (`I'm Free`, `I'm Not`) and at a weekday or month
//! (`this is Monday`). An email is checked for format only.

use super::date::weekday;
use super::tokens::{Tok, low, month};

const NAME_TRIGGERS: &[&[&str]] = &[
    &["my", "name", "is"],
    &["name", "is"],
    &["i'm"],
    &["im"],
    &["i", "am"],
    &["this", "is"],
    &["me", "llamo"],
    &["soy"],
];

/// Words capitalised as a name may be, but that are not one.
const NOT_NAMES: &[&str] =
    &["free", "available", "interested", "looking", "not", "in", "a", "an", "the", "i"];

/// `I'm Alex Student`, `my name is Alex Student`: up to four capitalised words after the
/// phrase, stopping at a pause.
pub(super) fn name(toks: &[Tok]) -> Option<String> {
    for i in 0..toks.len() {
        let Some(trigger) =
            NAME_TRIGGERS.iter().find(|t| t.iter().enumerate().all(|(k, w)| low(toks, i + k) == *w))
        else {
            continue;
        };
        let last_trigger = &toks[i + trigger.len() - 1];
        if last_trigger.pause {
            continue;
        }
        let mut words: Vec<&str> = Vec::new();
        for t in toks.iter().skip(i + trigger.len()).take(4) {
            let mut chars = t.text.chars();
            let capitalised = chars.next().is_some_and(char::is_uppercase);
            let letters = t.text.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'');
            if !capitalised
                || !letters
                || NOT_NAMES.contains(&t.low.as_str())
                || weekday(&t.low).is_some()
                || month(&t.low).is_some()
            {
                break;
            }
            words.push(&t.text);
            if t.pause {
                break;
            }
        }
        if !words.is_empty() {
            return Some(words.join(" "));
        }
    }
    None
}

/// The address in a token (`alex@example.edu`, `<alex@example.edu>`), if it is one.
pub(super) fn email_in(word: &str) -> Option<String> {
    let word = word.strip_prefix("mailto:").unwrap_or(word);
    is_email(word).then(|| word.to_string())
}

/// A plain address: `local@domain.tld`, checked for format only (it may not exist).
pub fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else { return false };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c));
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && labels.last().is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
    text.len() <= 254 && local_ok && domain_ok
}
