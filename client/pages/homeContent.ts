// The home page's copy, one voice with the service pages, using only the claims of spec
// section 9. The sections (client/sections/home/) take it as props. Icons are lucide names,
// which the server must put in the page's sprites (HOME_ICONS and HOME_SPRITE_ICONS in
// server/src/pages/mod.rs; a server test checks every icon the page uses is there).

export const HERO = {
  eyebrow: "Live call answering for home-service contractors",
  title: "Stop Missing Calls. Start Converting Leads.",
  text: "Live agents answer 100% of your calls in 3 rings or less, qualify every caller and send you the recording, transcript, SMS and e-mail within seconds. You stay on the job; the job stays yours.",
  /** Opens the registration modal (the registration request form without JavaScript). */
  cta: "Get Started Today",
  points: ["No setup fees", "No contracts", "Cancel anytime"],
};

/** The sample roofing lead in the hero, as a contractor's phone receives it. */
export const SAMPLE_LEAD = {
  label: "Sample roofing lead",
  answered: "Answered live in 2 rings",
  fields: [
    { term: "Caller", detail: "Karen D., homeowner" },
    { term: "Issue", detail: "Storm tore shingles off the back slope; water is dripping into an upstairs bedroom." },
    { term: "Area", detail: "Millcreek, PA 16509" },
    { term: "Callback", detail: "Today after 3 PM, wants an inspection and a repair quote" },
  ],
  urgency: "Urgent: active leak",
  deliveries: [
    { icon: "mic", text: "Recording 3:18" },
    { icon: "file-text", text: "Transcript ready" },
    { icon: "message-square-text", text: "SMS sent" },
    { icon: "mail", text: "E-mail sent" },
  ],
};

export const PROBLEM = {
  title: "Every unanswered call is a job you paid for and lost",
  steps: [
    {
      label: "The problem",
      icon: "phone-missed",
      title: "You can't answer from a roof.",
      text: "Crews are on ladders, in crawl spaces and behind the wheel when the phone rings, and emergencies don't keep office hours.",
    },
    {
      label: "The leak",
      icon: "trending-down",
      title: "Each missed call costs $500-$5,000.",
      text: "A homeowner with water coming through the ceiling won't wait for a callback. Voicemail sends them to the next contractor on the list, along with the job you paid to win.",
    },
    {
      label: "The fix",
      icon: "circle-check",
      title: "A live agent answers in 3 rings or less.",
      text: "We answer 100% of your calls, qualify the job, set a callback window and put the lead in your hands within seconds.",
    },
  ],
};

export const FEATURES = {
  eyebrow: "How it works",
  title: "Three layers between a ringing phone and a booked job",
  layers: [
    {
      icon: "headset",
      title: "Capture Layer",
      text: "Trained agents answer 100% of your calls in 3 rings or less, in your company's name, and qualify every caller: what's wrong, how urgent, where, and when to call back.",
    },
    {
      icon: "send",
      title: "Delivery Engine",
      text: "When the call ends, the lead reaches you by SMS and e-mail with its recording and transcript, within seconds rather than at the end of the day.",
    },
    {
      icon: "calendar-check",
      title: "Follow-Up Fuel",
      text: "Each lead carries the callback window the customer agreed to and the notes your crew needs, so your first call back starts with answers, not questions.",
    },
  ],
  capabilitiesTitle: "On every call",
  capabilities: [
    { icon: "mic", title: "Live Call Recording", text: "Hear exactly what the customer said, word for word." },
    { icon: "mail", title: "Instant Email Delivery", text: "Lead details and the recording in your inbox within seconds." },
    {
      icon: "message-square-text",
      title: "SMS Notifications",
      text: "The caller, the job and the callback window, texted to you or your dispatcher.",
    },
    {
      icon: "bell-ring",
      title: "Real-Time Alerts",
      text: "Urgent jobs such as active leaks or no heat are flagged the moment they come in.",
    },
    {
      icon: "user-check",
      title: "Professional Agents",
      text: "Live, trained people who answer in your company's name and ask your intake questions.",
    },
    { icon: "file-text", title: "Call Transcripts", text: "A written record of every call to search, share and forward to your crew." },
  ],
};

export const MARKETING_WASTE = {
  title: "Your marketing works. Voicemail wastes it.",
  text: "Ads, directory listings, yard signs and truck wraps all have one job: bring in calls. When nobody answers, the money is already spent and the customer calls someone else.",
  cost: { figure: "$500-$5,000", text: "what each missed call costs you" },
  without: {
    title: "Without live answering",
    steps: [
      "Your ad brings in a call",
      "The call goes to voicemail",
      "The caller hangs up and dials a competitor",
      "Your ad budget books someone else's job",
    ],
  },
  with: {
    title: "With live answering",
    steps: [
      "Your ad brings in a call",
      "A live agent answers in 3 rings or less",
      "The job is qualified and a callback window set",
      "The lead reaches you by SMS and e-mail within seconds",
    ],
  },
};

export const CLOSING = {
  title: "Be live in 24 hours",
  text: "Call today and agents can be answering your lines tomorrow. Join 500+ contractors who stopped sending jobs to voicemail.",
  /** Opens the registration modal, like the hero's 'Get Started Today'. */
  cta: "Request Your Account",
  pricingTitle: "Simple terms",
  pricing: ["No setup fees", "No contracts", "Cancel anytime", "24-hour setup"],
  pricingNote: "Call or e-mail us for a quote for your business.",
  proof: "Rated 4.7 from 230+ reviews",
};

export const GETTING_STARTED = {
  title: "Live in 24 hours, in three steps",
  steps: [
    { title: "Call us", text: "Tell us about your business, your service area and the jobs you want. One call is enough." },
    {
      title: "We set up your line",
      text: "We write your greeting and intake questions and send leads where you want them: SMS, e-mail or both.",
    },
    { title: "Forward your calls", text: "Send all your calls or just the overflow. Live agents answer every one in 3 rings or less." },
  ],
};
