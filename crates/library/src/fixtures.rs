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

/// The Library's five default skills, in display order.
pub fn default_skills() -> Vec<DefaultSkill> {
    vec![
        skill(
            "library-hours",
            "Library hours",
            "Opening hours of the main library for each day of the week and on public holidays.",
            &["hours", "opening", "schedule"],
            &[
                "What are the library hours?",
                "Is the library open on Sundays?",
                "Do the library hours change over the summer break?",
                "Can I get into the library early, like 7am?",
                "Is the library open over the public holiday?",
                "How late can I stay in the library on Saturday?",
                "Is the main library still open right now?",
                "Is the building open at 9pm on a Wednesday?",
                "Does the library close on bank holidays?",
                "What time do the doors open on weekday mornings?",
                "What are the weekend opening times?",
                "wen does the liberry close 2day",
                "¿La biblioteca abre los domingos en la mañana?",
                "Bukas ba ang library sa araw ng Pasko o sarado?",
                "Tối thứ Năm thư viện có mở cửa đến khuya không?",
            ],
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
            &[
                "How long can I borrow a book?",
                "How do I renew a loan?",
                "What do late returns cost per day?",
                "If I lose a library book, what do I have to pay?",
                "How many times can I extend my loan?",
                "Can I borrow a laptop from the library, and for how long?",
                "Where can I see the due dates of the books I checked out?",
                "Are there late fees for overdue laptops?",
                "Why can't I renew this item online?",
                "When do my books need to go back?",
                "Where do I drop off books when the library is closed?",
                "Can I take out a short-loan book overnight?",
                "Do DVDs have a shorter loan period than books?",
                "is ther a fee if i bring my loan back late",
                "can i renw a laptop loan or do i hav to bring it bak",
                "¿Cuántos días me puedo llevar un libro prestado?",
                "Mujhe library book ki due date extend karni hai, kaise karu?",
                "Paano mag-renew ng hiniram na libro sa library?",
                "Mình muốn gia hạn sách mượn ở thư viện thì làm sao?",
            ],
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
            &[
                "How do I book a group study room?",
                "Can we eat in the study rooms?",
                "Can a friend from another university join us in our group study room?",
                "How far ahead can I book a study room?",
                "How long can we keep a group room?",
                "I need to cancel my study room reservation",
                "Are there markers for the boards in the group rooms?",
                "Is there a quiet room where I can sit an online exam?",
                "Do the study rooms have a screen I can plug my laptop into?",
                "Can I book a room just for myself to revise?",
                "What happens if we show up late for our room booking?",
                "how do i book a grup room for revisin",
                "¿Se puede apartar una sala para estudiar en equipo?",
                "Study room mein maximum kitne log baith sakte hain?",
                "Bawal ba mag-ingay sa loob ng group study room?",
                "Phòng học nhóm có ổ cắm để sạc laptop không?",
            ],
            &[
                "Group study rooms A, B and C are on the second floor and seat up to 4, 6 and 10 people.",
                "Book a room up to 14 days ahead, for 1 or 2 hours between 09:00 and 21:00 (a demo booking, made with the Library's booking form).",
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
            &[
                "How much does colour printing cost?",
                "How do I pay for printing?",
                "How much is it to print 20 black-and-white pages?",
                "Can I pay for copies with cash?",
                "Is scanning to email free?",
                "Where are the printers in the library?",
                "How do I top up my campus card to print?",
                "Is there a scanner I can use to copy my passport?",
                "Can I photocopy a few pages from a reference book?",
                "How many pages can I print with 2 euros?",
                "The printer jammed and took my credit, can I get a refund?",
                "how much for colour prnting per page",
                "¿Puedo imprimir a doble cara en las impresoras de la biblioteca?",
                "Library mein printout lene ka kitna charge hai?",
                "Magkano ang pag-print ng isang page sa library?",
                "In màu ở thư viện giá bao nhiêu một trang?",
            ],
            &[
                "Black-and-white, single-sided: €0.10 per page",
                "Black-and-white, double-sided: €0.15 per sheet",
                "Colour, single-sided: €0.50 per page",
                "Colour, double-sided: €0.80 per sheet",
                "Pay with your campus card at any printer; cash is not accepted.",
                "Scanning to email is free.",
            ],
        ),
        skill(
            "finding-items",
            "Finding and requesting items",
            "Searching the catalogue, where collections are shelved, course reserves, interlibrary loans, your library account and the online databases.",
            &[
                "catalogue",
                "catalog",
                "shelves",
                "course reserves",
                "interlibrary loan",
                "library account",
                "pin",
                "databases",
                "e-journals",
            ],
            &[
                "How do I search the library catalogue?",
                "Where are the course reserves kept, and how long can I have one?",
                "Where are the maths books shelved?",
                "What does an interlibrary loan cost and how long does it take?",
                "Can I change the email address on my library account?",
                "Can I read the e-journals from off campus?",
                "Does the library own a particular title? How can I check?",
                "What does the shelf mark on a book's spine tell me?",
                "hw do i look up a book in the catlog",
                "were are the histry books shelvd",
                "¿Dónde encuentro los libros de química en la biblioteca?",
                "Jo book library mein nahi hai, kya use dusri library se mangwa sakte hain?",
                "Paano ko hahanapin ang isang libro sa catalog ng library?",
                "Sách tham khảo của môn học được để ở đâu trong thư viện?",
            ],
            &[
                "Search the catalogue on the library website or at the terminals by the entrance; each record shows the floor and the shelf mark.",
                "Ground floor: service desk and course reserves. First floor: sciences and mathematics. Second floor: group study rooms. Third floor: humanities and social sciences. Fourth floor: quiet reading room.",
                "Course reserves are kept at the service desk: a 4-hour loan, for use inside the library.",
                "Interlibrary loan: request an item the library does not hold from your library account; €3.00 per request, usually 5 to 10 working days.",
                "Your library account: sign in with your student number and library PIN; reset the PIN at the service desk or from the sign-in page.",
                "Databases and e-journals work off campus once you sign in with your student account.",
            ],
        ),
    ]
}

fn skill(
    id: &str,
    name: &str,
    description: &str,
    tags: &[&str],
    examples: &[&str],
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
        assert_eq!(skills.len(), 5);
        let ids: HashSet<_> = skills.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids.len(), skills.len(), "ids must be unique");
        for s in &skills {
            assert!(!s.name.is_empty() && !s.description.is_empty(), "{}", s.id);
            assert!(!s.tags.is_empty(), "{}", s.id);
            assert!(s.examples.len() >= 8, "{}: the router learns from these", s.id);
            assert!(s.content.lines().all(|l| !l.trim().is_empty() && l == l.trim_end()), "{}", s.id);
        }
    }

    /// The two lead examples of each skill (plain English) are answered by that skill;
    /// the rest, misspelled and mixed-language, are there for the Hub's router.
    #[test]
    fn every_lead_example_is_answered_by_its_own_skill() {
        let skills = default_skills();
        let texts: Vec<_> = skills.iter().map(DefaultSkill::text).collect();
        for s in &skills {
            for example in s.examples.iter().take(2) {
                match crate::answer(example, &texts) {
                    crate::Answer::Lines { skill_id, .. } => assert_eq!(skill_id, s.id, "{example}"),
                    other => panic!("{example}: {other:?}"),
                }
            }
        }
    }
}
