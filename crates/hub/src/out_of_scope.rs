//! The Hub's built-in out-of-scope examples: questions students bring to a front desk
//! that no specialist here serves (other campus offices, other subjects, everyday life),
//! in English and mixed with Spanish, Hindi, Tagalog and Vietnamese. The classifier's
//! out-of-scope class is trained on these (`outOfScope` in the Hub's configuration
//! replaces them). Marketing and other courses stay here until a specialist for them
//! registers; then the operator removes them.

const EXAMPLES: &[&str] = &[
    // housing, dorms, repairs
    "My radiator makes a banging noise all night, who fixes that?",
    "The toilet in our dorm bathroom keeps running",
    "How do I request a room swap in the residence hall?",
    "Is there a deadline to sign next year's dorm contract?",
    "There's mould on my bedroom wall in halls",
    "Our kitchen light has been broken for a week",
    "Can I have a cat in student housing?",
    "The heating in my flat isn't on and it's freezing",
    "How much is rent for a single room off campus?",
    "my landlord won't give back my deposit",
    "The elevator in my building is out of order again",
    "Can maintenance unlock my room, I left my keys inside",
    // dining, food
    "What's for lunch in the cafeteria today?",
    "Are there vegan options at the dining hall?",
    "How do I add money to my dining card?",
    "Which coffee shop near campus is open late?",
    "Where can I get cheap groceries around here?",
    "Is the food court open over the holidays?",
    // transport, parking
    "When does the shuttle bus leave for the train station?",
    "Is there visitor parking near the stadium?",
    "Where can I lock my bike overnight?",
    "How do I get a discounted bus pass as a student?",
    "My car got towed from the faculty lot, what now?",
    // IT, devices, accounts
    "My email password expired and I can't log in",
    "How do I connect my game console to the campus network?",
    "How do I install Microsoft Office with my student licence?",
    "My phone screen cracked, where can I get it repaired?",
    "The keyboard on my laptop stopped typing some letters",
    "How do I reset the two-factor authentication on my student portal?",
    "My printer at home won't connect to my laptop",
    // health, wellbeing
    "I think I sprained my ankle at practice, where is the clinic?",
    "How do I book a counselling appointment?",
    "Is there a pharmacy on campus that sells allergy medication?",
    "Where can I get a flu vaccine on campus?",
    "I feel really stressed and can't sleep",
    // money, admin, careers
    "When is the tuition fee payment due this semester?",
    "How do I apply for a scholarship?",
    "My financial aid hasn't arrived yet",
    "How do I get a copy of my transcript?",
    "Can I change my major to psychology?",
    "How do I drop a class after the add/drop period?",
    "Where do I get my student ID card replaced?",
    "Can you review my CV for an internship?",
    "Help me prepare for a job interview at a bank",
    "How do I get a student visa extension?",
    "Is there a part-time job on campus I can apply for?",
    "How do I file a complaint about a professor?",
    "When is graduation and how do I get tickets for my family?",
    "How do I open a bank account as an international student?",
    // events, clubs, sport, life
    "When does the gym open on weekends?",
    "How do I join the football team?",
    "Are there tickets left for the theatre show on Friday?",
    "What clubs can I join as a first-year?",
    "Where is a good place to get a haircut nearby?",
    "What movies are showing tonight?",
    "Will it rain this afternoon?",
    "What's the score of the basketball game?",
    "My girlfriend and I had a fight, what should I do?",
    "Any TV shows you'd suggest for the weekend?",
    "How do I cook rice without a rice cooker?",
    "What time is it in Tokyo right now?",
    "Tell me a joke",
    "Who won the election?",
    "Can you order me a taxi to the airport?",
    "I lost my wallet on the bus, who do I contact?",
    // other subjects, and doing the work for the student
    "What is the molar mass of sulfuric acid?",
    "How do I name this organic compound?",
    "What is the pH of a 0.01 M HCl solution?",
    "Explain Newton's third law with an example",
    "What is the momentum of a 2 kg cart moving at 3 m/s?",
    "What is the resistance of two resistors in parallel?",
    "What's the acceleration of a 3 kg mass pushed with 12 N?",
    "How do I find the tension in a rope holding up a hanging sign?",
    "A projectile is launched at 45 degrees; how far does it land?",
    "How much work does it take to lift a 10 kg box onto a shelf?",
    "How does photosynthesis work?",
    "What are the stages of mitosis?",
    "Summarize the causes of the First World War",
    "Who wrote One Hundred Years of Solitude?",
    "Analyse the symbolism in The Great Gatsby",
    "Translate this paragraph into French",
    "How do I conjugate irregular verbs in German?",
    "Fix the bug in my Python code",
    "How do I write a SQL join?",
    "Explain supply and demand curves",
    "What is GDP and how is it measured?",
    "Write my philosophy essay on free will",
    "Do my statistics assignment for me",
    "Proofread my cover letter",
    "Solve this sudoku",
    "What's the capital of Australia?",
    // marketing and business courses (no specialist yet)
    "What does a brand manager do all day?",
    "What goes in a PEST analysis?",
    "What makes a brand name easy to remember?",
    "What pricing strategy suits a small online shop?",
    "How do influencers get paid by brands?",
    "How do I write a SWOT analysis for a local gym?",
    "Explain the AIDA model in advertising",
    "How do I measure brand awareness?",
    "What is a value proposition?",
    "What is a focus group used for?",
    "What's the difference between B2B and B2C marketing?",
    "How do I calculate customer lifetime value?",
    "Give me ideas for a product launch promotion",
    "What is influencer marketing and does it work?",
    "How do brands build loyalty programmes?",
    "What is a marketing funnel and conversion rate?",
    "How do I run a competitor analysis for my case study?",
    "What does a brand manager do?",
    "How do I promote my bakery on Instagram?",
    "What's a good slogan for a student-run coffee cart?",
    "How do I write a press release for an event?",
    "How should I split my market into segments for a new energy drink?",
    // mixed languages
    "¿Dónde queda la oficina de becas? Necesito apply para la scholarship",
    "¿Cómo conecto mi celular al wifi de la universidad?",
    "¿A qué hora abre el gym los domingos?",
    "Necesito hacer el marketing plan de mi startup, ¿cómo empiezo con el branding?",
    "¿Cómo le hago para cambiar mi horario de clases?",
    "Hostel ka wifi bahut slow hai, complaint kahan karun?",
    "Mujhe fever hai since kal, doctor kahan milega campus pe?",
    "Bhai mess ka khana bahut kharab hai, kahin aur kha sakte hain?",
    "Instagram pe brand ka promotion kaise karein?",
    "Scholarship ka form kab tak submit karna hai?",
    "Nawala yung ID ko, paano magpa-replace?",
    "Paano gumawa ng branding strategy para sa small business namin?",
    "Magkano ba ang bayad sa parking sa campus?",
    "Ký túc xá có cho nấu ăn trong phòng không?",
    "Xe buýt của trường chạy mấy giờ vậy?",
    "Em muốn hỏi về học bổng, nộp hồ sơ ở đâu?",
    "Làm sao để viết marketing plan cho một quán cà phê?",
];

/// The built-in out-of-scope examples.
pub(crate) fn defaults() -> Vec<String> {
    EXAMPLES.iter().map(|e| e.to_string()).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn examples_are_within_the_configured_limits() {
        let all = super::defaults();
        assert!(all.len() <= crate::config::MAX_OUT_OF_SCOPE);
        for e in &all {
            assert!(!e.trim().is_empty() && e.chars().count() <= crate::config::MAX_EXAMPLE_CHARS, "{e}");
        }
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len(), "no example twice");
    }
}
