// The seed's 42 micro-actions (seed 004, "Micro-Action Pool"), verbatim, shipped as data: 7 per
// pool, 6 pools (3 terrain groups × 2 phases), each line the action text followed by its duration
// in parentheses, which is exactly the notification's body. `pool[0]` is the seed's item 1.

package enum RitualActions {
    /// The pool of `group` and `phase`.
    package static func pool(_ group: RitualTerrain.Group, _ phase: RitualPhase) -> [String] {
        switch (group, phase) {
        case (.cold, .morning): return coldMorning
        case (.cold, .evening): return coldEvening
        case (.warm, .morning): return warmMorning
        case (.warm, .evening): return warmEvening
        case (.neutral, .morning): return neutralMorning
        case (.neutral, .evening): return neutralEvening
        }
    }

    static let coldMorning = [
        "Drink a glass of warm water (10 sec)",
        "Rub your palms together briskly for 10 seconds (10 sec)",
        "Place your warm palms over your lower back (15 sec)",
        "Stretch your arms overhead and take 3 deep breaths (15 sec)",
        "Roll your ankles slowly — 5 circles each direction (20 sec)",
        "Press your thumb into the center of your palm for 5 seconds (10 sec)",
        "Gently massage your earlobes for 10 seconds (10 sec)",
    ]

    static let coldEvening = [
        "Place your hands on your lower belly and breathe deeply (15 sec)",
        "Sip warm water before bed (10 sec)",
        "Rub the soles of your feet gently for 15 seconds (15 sec)",
        "Take 3 slow breaths, imagining warmth spreading inward (15 sec)",
        "Gently press the space between your eyebrows for 5 seconds (10 sec)",
        "Roll your shoulders backward slowly 5 times (15 sec)",
        "Cup your palms over your closed eyes and relax your jaw (15 sec)",
    ]

    static let warmMorning = [
        "Drink room-temperature water with a slow exhale (10 sec)",
        "Splash cool water on your wrists and inner elbows (10 sec)",
        "Take 3 breaths — inhale 4 counts, exhale 6 counts (20 sec)",
        "Gently press your temples with your fingertips for 5 seconds (10 sec)",
        "Open a window and take 3 deep breaths of fresh air (15 sec)",
        "Close your eyes and unclench your jaw for 10 seconds (10 sec)",
        "Roll your neck slowly — 3 circles each direction (20 sec)",
    ]

    static let warmEvening = [
        "Take 3 slow exhales through your mouth (15 sec)",
        "Press your thumbs into your temples gently for 10 seconds (10 sec)",
        "Place a cool cloth on the back of your neck (15 sec)",
        "Close your eyes and count 5 slow breaths (20 sec)",
        "Gently shake out your hands for 10 seconds to release tension (10 sec)",
        "Rest your palms face-up on your knees and breathe (15 sec)",
        "Soften your forehead and relax your tongue from the roof of your mouth (10 sec)",
    ]

    static let neutralMorning = [
        "Take 3 deep breaths by a window (15 sec)",
        "Roll your shoulders back 5 times (15 sec)",
        "Stand tall and press your feet into the floor for 10 seconds (10 sec)",
        "Tap the top of your head lightly with your fingertips (10 sec)",
        "Stretch your arms wide and take one big breath (10 sec)",
        "Rub your hands together and place them over your eyes (15 sec)",
        "Interlace your fingers overhead and lean gently to each side (15 sec)",
    ]

    static let neutralEvening = [
        "Drop your shoulders away from your ears (10 sec)",
        "Close your eyes and count 5 breaths (20 sec)",
        "Place one hand on your chest and one on your belly — breathe slowly (15 sec)",
        "Gently massage the web between your thumb and index finger (15 sec)",
        "Relax your tongue and soften the muscles around your eyes (10 sec)",
        "Take a slow sip of warm water and notice the warmth (10 sec)",
        "Rock gently from your heels to your toes 5 times (15 sec)",
    ]
}
