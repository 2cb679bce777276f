//! The Library's default skills (fictional data). The agent's default configuration is
//! built from these; tests use them as a realistic skill set.
//!
//! The content is facts only: opening times, loan periods, prices and rules. Nothing in it
//! is a date to work out or a transaction to perform, so copying it verbatim is safe.

use crate::extract::SkillText;

/// One default skill, shaped like a configured skill (`content` is its saved answer content).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefaultSkill {
    pub id: String,
    pub name: String,
    pub description: String,
    pub tags: Vec<String>,
    pub examples: Vec<String>,
    pub content: String,
}

impl DefaultSkill {
    /// The view [`crate::answer`] reads.
    pub fn text(&self) -> SkillText<'_> {
        SkillText {
            id: &self.id,
            name: &self.name,
            description: &self.description,
            tags: &self.tags,
            content: &self.content,
        }
    }
}

/// The Library's four default skills, in display order.
pub fn default_skills() -> Vec<DefaultSkill> {
    vec![
        skill(
            "library-hours",
            "Library hours",
            "Opening hours of the main library for each day of the week and on public holidays.",
            &["hours", "opening", "schedule"],
            ["What are the library hours?", "Is the library open on Sundays?"],
            &[
                "Monday: 8:00–22:00",
                "Tuesday: 8:00–22:00",
                "Wednesday: 8:00–22:00",
                "Thursday: 8:00–22:00",
                "Friday: 8:00–20:00",
                "Saturday: 10:00–18:00",
                "Sunday: 12:00–18:00",
                "Public holidays: closed",
            ],
        ),
        skill(
            "borrowing",
            "Borrowing and renewals",
            "How long you can borrow items, how to renew them, fines and holds.",
            &["borrow", "loan", "renew", "renewal", "due", "checkout"],
            ["How long can I borrow a book?", "How do I renew a loan?"],
            &[
                "Books: 28-day loan.",
                "Short-loan books: 3-day loan.",
                "DVDs and laptops: 7-day loan.",
                "The due date is printed on your checkout receipt and shown in your library account.",
                "You can renew an item online in your library account up to 2 times, unless someone has placed a hold on it.",
                "A renewal starts a new loan period from the day you renew.",
                "Overdue fines: €0.20 per item per day; laptops €5.00 per day.",
                "Place a hold at the service desk or online; we email you when the item is ready to collect.",
            ],
        ),
        skill(
            "study-rooms",
            "Study rooms",
            "Group study rooms: how to reserve one and the rules while you use it.",
            &["study room", "group study", "reserve", "booking"],
            ["How do I book a group study room?", "Can we eat in the study rooms?"],
            &[
                "Group study rooms are on the second floor and seat 2 to 8 people.",
                "Book a room online up to 7 days ahead, for at most 3 hours a day.",
                "Bookings are held for 15 minutes; after that the room is released to walk-ins.",
                "Keep noise low, leave the whiteboard clean, and no food in the rooms.",
                "Cancel a booking online if you no longer need the room.",
            ],
        ),
        skill(
            "printing",
            "Printing",
            "What printing and copying cost and how to pay.",
            &["print", "printing", "copies", "price"],
            ["How much does colour printing cost?", "How do I pay for printing?"],
            &[
                "Black-and-white, single-sided: €0.10 per page",
                "Black-and-white, double-sided: €0.15 per sheet",
                "Colour, single-sided: €0.50 per page",
                "Colour, double-sided: €0.80 per sheet",
                "Pay with your campus card at any printer; cash is not accepted.",
                "Scanning to email is free.",
            ],
        ),
    ]
}

fn skill(
    id: &str,
    name: &str,
    description: &str,
    tags: &[&str],
    examples: [&str; 2],
    lines: &[&str],
) -> DefaultSkill {
    DefaultSkill {
        id: id.to_string(),
        name: name.to_string(),
        description: description.to_string(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
        examples: examples.iter().map(|e| e.to_string()).collect(),
        content: lines.join("\n"),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn defaults_are_complete_and_distinct() {
        let skills = default_skills();
        assert_eq!(skills.len(), 4);
        let ids: HashSet<_> = skills.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids.len(), skills.len(), "ids must be unique");
        for s in &skills {
            assert!(!s.name.is_empty() && !s.description.is_empty(), "{}", s.id);
            assert!(!s.tags.is_empty(), "{}", s.id);
            assert_eq!(s.examples.len(), 2, "{}", s.id);
            assert!(s.content.lines().all(|l| !l.trim().is_empty() && l == l.trim_end()), "{}", s.id);
        }
    }

    #[test]
    fn every_example_is_answered_by_its_own_skill() {
        let skills = default_skills();
        let texts: Vec<_> = skills.iter().map(DefaultSkill::text).collect();
        for s in &skills {
            for example in &s.examples {
                match crate::answer(example, &texts) {
                    crate::Answer::Lines { skill_id, .. } => assert_eq!(skill_id, s.id, "{example}"),
                    other => panic!("{example}: {other:?}"),
                }
            }
        }
    }
}
