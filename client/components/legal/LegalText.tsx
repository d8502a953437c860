import { createContext, useContext, type JSX, type ReactNode } from "react";
import { telHref } from "../../lib/phone";

/**
 * Privacy Policy and Terms of Service text.
 *
 * Pure presentational JSX (no hooks, no state). Rendered inside a modal dialog
 * that supplies its own title, so these components start at the effective-date
 * line and use h3 section headings. Heading ids are prefixed "privacy-" and
 * "terms-" so both documents can live on one page without id collisions.
 */

export interface LegalProps {
  brand: string;
  email: string;
  phone: string;
}

export const LEGAL_EFFECTIVE_DATE = "January 1, 2025";
export const LEGAL_LAST_UPDATED = "January 1, 2025";

/** How long call recordings and personal data may be kept. */
const RETENTION = "7 years";

interface SectionDef {
  readonly id: string;
  readonly title: string;
}

const P = {
  company: { id: "privacy-company", title: "Company information" },
  collect: { id: "privacy-collect", title: "Information we collect" },
  use: { id: "privacy-use", title: "How we use information" },
  share: { id: "privacy-share", title: "How we share information" },
  security: { id: "privacy-security", title: "Security and retention" },
  rights: { id: "privacy-rights", title: "Your rights and choices" },
  contact: { id: "privacy-contact", title: "Contact us" },
  changes: { id: "privacy-changes", title: "Changes to this policy" },
} as const satisfies Record<string, SectionDef>;

const T = {
  acceptance: { id: "terms-acceptance", title: "Acceptance of terms" },
  service: { id: "terms-service", title: "Service description" },
  obligations: { id: "terms-obligations", title: "User obligations" },
  contractors: { id: "terms-contractors", title: "Contractor relationships" },
  fees: { id: "terms-fees", title: "Fees" },
  liability: { id: "terms-liability", title: "Limitation of liability" },
  recording: { id: "terms-recording", title: "Call recording" },
  disputes: { id: "terms-disputes", title: "Dispute resolution" },
  termination: { id: "terms-termination", title: "Termination" },
  law: { id: "terms-law", title: "Governing law" },
  contact: { id: "terms-contact", title: "Contact" },
} as const satisfies Record<string, SectionDef>;

/** Privacy Policy section headings, in display order. */
export const PRIVACY_SECTIONS: readonly string[] = [
  P.company.title,
  P.collect.title,
  P.use.title,
  P.share.title,
  P.security.title,
  P.rights.title,
  P.contact.title,
  P.changes.title,
];

/** Terms of Service section headings, in display order. */
export const TERMS_SECTIONS: readonly string[] = [
  T.acceptance.title,
  T.service.title,
  T.obligations.title,
  T.contractors.title,
  T.fees.title,
  T.liability.title,
  T.recording.title,
  T.disputes.title,
  T.termination.title,
  T.law.title,
  T.contact.title,
];

// ---------------------------------------------------------------------------
// Small presentational helpers (plain function components, no hooks).
// ---------------------------------------------------------------------------

/** The level of the section headings: 3 under a dialog's h2 title (the default), 2 on the
 * /privacy and /terms pages under their h1. */
export const LegalHeadingLevel = createContext<2 | 3>(3);

function Section({ def, children }: { def: SectionDef; children: ReactNode }): JSX.Element {
  const Heading = useContext(LegalHeadingLevel) === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby={def.id}>
      <Heading id={def.id} className="mt-6 text-lg font-bold text-slate-900">
        {def.title}
      </Heading>
      {children}
    </section>
  );
}

function Para({ children }: { children: ReactNode }): JSX.Element {
  return <p className="mt-2 text-slate-700">{children}</p>;
}

function List({ children }: { children: ReactNode }): JSX.Element {
  return <ul className="mt-2 list-disc space-y-1 pl-6 text-slate-700">{children}</ul>;
}

function Lead({ children }: { children: ReactNode }): JSX.Element {
  return <strong className="font-semibold text-slate-900">{children}</strong>;
}

function Email({ email }: { email: string }): JSX.Element {
  return (
    <a href={"mailto:" + email} className="font-semibold text-blue-800 underline">
      {email}
    </a>
  );
}

function Phone({ phone }: { phone: string }): JSX.Element {
  return (
    <a href={telHref(phone)} className="font-semibold text-blue-800 underline">
      {phone}
    </a>
  );
}

/** How to reach us: the same two lines in both documents. */
function ContactList({ email, phone }: { email: string; phone: string }) {
  return (
    <List>
      <li>
        Email: <Email email={email} />
      </li>
      <li>
        Phone: <Phone phone={phone} />
      </li>
    </List>
  );
}

function Dates(): JSX.Element {
  return (
    <p className="text-sm text-slate-600">
      {`Effective date: ${LEGAL_EFFECTIVE_DATE}. Last updated: ${LEGAL_LAST_UPDATED}.`}
    </p>
  );
}

// ---------------------------------------------------------------------------
// Privacy Policy
// ---------------------------------------------------------------------------

export function PrivacyPolicy({ brand, email, phone }: LegalProps): JSX.Element {
  return (
    <>
      <Dates />

      <Section def={P.company}>
        <Para>
          This Privacy Policy explains how {brand} ("{brand}," "we," "us," or "our") collects, uses, shares, and protects
          personal information when you visit our website, submit a form on it, call or text a phone number published on
          it, or otherwise interact with us. It applies to homeowners and other consumers who ask to be connected with a
          service provider, to businesses that use or ask about our call answering services, and to marketers who apply
          to our affiliate campaigns.
        </Para>
        <Para>We operate two related lines of business:</Para>
        <List>
          <li>
            <Lead>Call answering and lead delivery.</Lead> Our live agents answer calls for home-service contractors and
            other small businesses, qualify callers, set callback windows, and deliver call recordings, transcripts, and
            lead details to our business clients by text message and email.
          </li>
          <li>
            <Lead>Home-services connection service.</Lead> On our service pages (for example, heating and cooling,
            roofing, and plumbing), homeowners can call a tracked phone number or request a callback. We then connect
            them with independent contractors in our partner network. We are not a contractor and do not perform home
            services ourselves.
          </li>
        </List>
        <Para>
          When our agents answer a call on behalf of a business client, we handle the caller's information for that
          business and under its instructions, and the business's own privacy practices also apply. If you have
          questions about how a particular business uses information from a call you placed to it, please contact that
          business directly.
        </Para>
        <Para>
          This policy does not cover the practices of the contractors, business clients, or other companies we connect
          you with, or of websites we link to. Those companies use your information under their own privacy policies.
          Please review our Terms of Service as well, which govern your use of our website and services.
        </Para>
      </Section>

      <Section def={P.collect}>
        <Para>
          <Lead>Information you give us.</Lead> When you fill out a callback request, call us, or apply to a campaign,
          we collect the information you choose to provide. Depending on how you contact us, this may include:
        </Para>
        <List>
          <li>your name, phone number, email address, and ZIP code or service address;</li>
          <li>the type of service you need, a description of your project or problem, and your preferred callback time;</li>
          <li>
            for business clients and prospects, your company name, role, and the details needed to set up and deliver our
            services;
          </li>
          <li>
            for affiliate applicants, your name, business name, contact details, website, and a description of your
            traffic sources and marketing methods;
          </li>
          <li>anything else you tell us in a message, a text, or a conversation with one of our agents.</li>
        </List>
        <Para>
          <Lead>Calls and text messages.</Lead> When you call or text one of our numbers, or we call or text you, we
          collect your phone number and caller ID information, the date, time, and length of the call, the tracked
          number you dialed, and the page or campaign it was associated with. Calls are recorded. We keep the recording
          and may create a written transcript of it, including by automated transcription, along with notes our agents
          take during the call.
        </Para>
        <Para>
          <Lead>Information collected automatically.</Lead> When you visit our website or submit a form, we collect your
          IP address, browser and device information (your user agent), the address of the page you were on, the
          referring page that brought you to us, marketing campaign parameters contained in the link you followed (known
          as UTM parameters), and the date and time of your visit. We may estimate your general location from your IP
          address or ZIP code. We do not collect precise geolocation from your device.
        </Para>
        <Para>
          <Lead>Consent records.</Lead> When you submit a callback request, we store the exact consent wording that was
          displayed to you together with your submission and the time you submitted it. We also use TrustedForm, a
          consent-certification service provided by ActiveProspect, Inc., to document your consent. TrustedForm records
          your session on the form page, including the page content you saw and your interactions with the form (such as
          clicks, scrolling, and text you type into form fields), and issues a certificate that we keep with your
          request. We use these records to show that consent was given, and the terms under which it was given, if that
          is ever questioned.
        </Para>
        <Para>
          <Lead>Advertising and analytics tools.</Lead> When enabled, we use the Meta Pixel, a tool provided by Meta
          Platforms, Inc., and similar technologies such as cookies. These tools collect information about your browser
          and your activity on our pages, such as the pages you view and whether you submit a form, and send it to the
          tool's provider. Meta may associate this information with a Meta account you hold and use it under its own
          data policy.
        </Para>
        <Para>
          <Lead>Information from others.</Lead> We may receive information about you from affiliate partners whose
          advertising led you to us, from business clients who forward calls to us, and from contractor partners who
          tell us whether a connection was completed or report a problem with a request.
        </Para>
        <Para>
          For residents of states whose privacy laws use categories, the information described above falls within these
          categories: identifiers (such as name, phone number, email address, and IP address); customer records
          information; commercial information (such as the services you requested); internet or other electronic network
          activity information; approximate geolocation (such as ZIP code); audio and electronic information (call
          recordings and form session records); professional information (for business clients and affiliate applicants);
          and inferences drawn from the above (such as whether a request appears to qualify for a given service).
        </Para>
        <Para>
          Please do not send us Social Security numbers, payment card numbers, health information, or other sensitive
          information through our forms, by text, or on a call. We do not need it to provide our services.
        </Para>
      </Section>

      <Section def={P.use}>
        <Para>We use the information we collect to:</Para>
        <List>
          <li>answer your call, return your callback request within the window you choose, and respond to your questions;</li>
          <li>
            understand the service you need and connect you with one or more independent contractors who serve your area
            and that type of work;
          </li>
          <li>
            provide our call answering service to business clients, including qualifying callers and delivering
            recordings, transcripts, and lead details by text message and email;
          </li>
          <li>
            call and text you, including by automated means, about your request, as permitted by the consent you gave or
            as otherwise allowed by law;
          </li>
          <li>
            document and verify consent to be contacted, honor opt-out requests, and comply with the Telephone Consumer
            Protection Act, state telemarketing and privacy laws, and other legal requirements;
          </li>
          <li>evaluate affiliate applications, attribute calls and requests to campaigns, and calculate compensation;</li>
          <li>monitor and review calls for quality, agent training, and compliance;</li>
          <li>detect, investigate, and prevent fraud, fake or duplicate submissions, spam, and abuse of our services;</li>
          <li>
            measure how our website and advertising perform, understand which pages and campaigns are useful to
            visitors, and improve our website and services;
          </li>
          <li>
            when advertising tools are enabled, show our advertising to people who have visited our website and to
            people with similar interests;
          </li>
          <li>resolve disputes, enforce our Terms of Service, and establish, exercise, or defend legal claims; and</li>
          <li>comply with law, regulation, court orders, and lawful requests from government authorities.</li>
        </List>
        <Para>
          We may also use information that has been aggregated or de-identified so that it can no longer reasonably be
          linked to you. Where we do so, we will not attempt to re-identify it except as the law allows.
        </Para>
      </Section>

      <Section def={P.share}>
        <Para>
          <Lead>Contractor partners.</Lead> When you ask to be connected with a service provider, we share your name,
          phone number, ZIP code or service address, a description of the service you need, your preferred callback
          time, and relevant call details (which may include the call recording or transcript) with one or more
          independent contractors in our network so they can contact you about your request. Contractors compensate us
          for these connections. Each contractor is a separate business that uses your information under its own privacy
          practices, and may call or text you in line with the consent you gave.
        </Para>
        <Para>
          <Lead>Business clients.</Lead> When you call a business that uses our call answering service, we deliver the
          recording, transcript, your contact details, and the information you gave our agent to that business.
        </Para>
        <Para>
          <Lead>Service providers.</Lead> We share information with companies that perform services for us, such as
          telephone and call-tracking carriers, text message and email delivery providers, website hosting and data
          storage providers, transcription providers, consent-certification services (TrustedForm), analytics providers,
          and professional advisers such as lawyers and accountants. We allow them to use the information only as needed
          to perform services for us, and we require them to protect it.
        </Para>
        <Para>
          <Lead>Affiliate partners.</Lead> If you reached us through an affiliate's advertising, we may share limited
          information with that affiliate as needed to attribute and pay for the referral, such as the campaign, the date
          and time of your call or request, and whether it qualified.
        </Para>
        <Para>
          <Lead>Advertising partners.</Lead> When the Meta Pixel or similar tools are enabled, information about your
          browser and activity on our pages is disclosed to the provider of those tools, as described above.
        </Para>
        <Para>
          <Lead>Legal, safety, and business transfers.</Lead> We may disclose information when we believe in good faith
          that it is required by law, subpoena, or court order; to respond to a consumer or regulatory complaint; to
          protect the rights, property, or safety of {brand}, our clients, partners, or others; or to investigate fraud.
          If we are involved in a merger, acquisition, financing, reorganization, or sale of all or part of our business,
          information may be transferred as part of that transaction, subject to this policy.
        </Para>
        <Para>
          <Lead>With your direction or consent.</Lead> We may share information for other purposes if you ask us to or
          agree to it.
        </Para>
        <Para>
          <Lead>Text messaging.</Lead> We do not share your mobile phone number or your text messaging consent with third
          parties or affiliates for their own marketing purposes. The only exceptions are the sharing described above
          that is needed to provide the service you requested, such as giving your number to the contractor partner you
          asked to be connected with, and sharing with service providers that deliver our messages.
        </Para>
      </Section>

      <Section def={P.security}>
        <Para>
          We use administrative, technical, and physical safeguards designed to protect personal information, such as
          encrypted connections for our website and forms, access controls that limit call recordings and lead records to
          personnel and service providers who need them, and written obligations on our service providers. No website,
          phone system, or storage system is completely secure, however, and we cannot guarantee the security of
          information you send us. If we learn of a security breach affecting your personal information, we will notify
          you as required by law.
        </Para>
        <Para>
          We keep call recordings, transcripts, lead records, consent records, and other personal data for as long as we
          need them for the purposes described in this policy, and for no more than {RETENTION} from the date we
          collected them. We keep records this long because consent and call-related claims can be raised years after a
          call or form submission, and the records help us show what was said and what you agreed to. We may keep
          information longer only where a law requires it or where we must preserve it for a pending legal claim,
          investigation, or dispute, and then only until that obligation ends.
        </Para>
        <Para>
          When information is no longer needed, we delete it or de-identify it. Deleting information from our systems
          does not delete copies held by contractors or business clients who received it, which they keep under their
          own policies.
        </Para>
      </Section>

      <Section def={P.rights}>
        <Para>
          <Lead>Opting out of calls and texts.</Lead> You can withdraw your consent to receive calls and text messages
          from us at any time, by any reasonable means, including:
        </Para>
        <List>
          <li>replying STOP to any text message from us (you can reply HELP for help);</li>
          <li>telling one of our agents during a call that you do not want to be contacted again; or</li>
          <li>
            emailing us at <Email email={email} /> with the phone number you want us to stop contacting.
          </li>
        </List>
        <Para>
          We will process your request promptly and within the time the law requires. You may receive one text message
          confirming your opt-out. Opting out with us does not opt you out of contact from a contractor we have already
          connected you with; to stop contact from that contractor, please tell the contractor directly. Giving consent
          to be contacted is never a condition of buying any goods or services. Message frequency varies, and message and
          data rates may apply.
        </Para>
        <Para>
          <Lead>State privacy rights.</Lead> Depending on where you live, including in California, Colorado,
          Connecticut, Virginia, and other states with comprehensive privacy laws, you may have the right to:
        </Para>
        <List>
          <li>know what personal information we have collected about you and how we use and disclose it, and get a copy;</li>
          <li>ask us to delete personal information we have collected from you, subject to exceptions allowed by law;</li>
          <li>ask us to correct inaccurate personal information;</li>
          <li>opt out of the sale or sharing of your personal information and of targeted advertising;</li>
          <li>appeal our decision on your request, if your state provides for appeals; and</li>
          <li>exercise these rights without being discriminated against for doing so.</li>
        </List>
        <Para>
          To make a request, email us at <Email email={email} /> or call us at <Phone phone={phone} />. We will need to
          verify your identity before acting on a request, usually by matching the name and phone number or email
          address you give us with our records, and we may ask for more information if needed. You may use an authorized
          agent to make a request for you; we may require proof that the agent is authorized and may ask you to verify
          your identity directly. We will respond within the time required by law, which is generally 45 days. If we deny
          your request, we will tell you why and, where applicable, how to appeal. Some information, such as consent
          records and opt-out records, we may need to keep to comply with the law even after a deletion request.
        </Para>
        <Para>
          <Lead>Do not sell or share my personal information.</Lead> We do not sell personal information to data
          brokers, and we do not sell lists of consumers. When you ask us to connect you with a contractor, we disclose
          your information to that contractor at your direction, so that you can get the service you asked for. However,
          our use of advertising tools such as the Meta Pixel may be considered a "sale" or "sharing" of personal
          information, or "targeted advertising," under some state laws. You can opt out of this by:
        </Para>
        <List>
          <li>
            emailing us at <Email email={email} /> with the subject line "Do Not Sell or Share My Personal Information";
          </li>
          <li>
            calling us at <Phone phone={phone} /> and telling us you want to opt out; or
          </li>
          <li>
            turning on a Global Privacy Control signal in your browser. Where required by law, we treat that signal as a
            valid request to opt out for that browser.
          </li>
        </List>
        <Para>
          You can also limit cookie-based tracking through your browser settings, and you can manage how Meta uses
          information for advertising in your Meta account's ad settings.
        </Para>
        <Para>
          <Lead>Children.</Lead> Our website and services are intended for adults and are not directed to children. We do
          not knowingly collect personal information from children under 13. If you believe a child under 13 has given us
          personal information, contact us and we will delete it.
        </Para>
      </Section>

      <Section def={P.contact}>
        <Para>
          If you have questions about this Privacy Policy or our privacy practices, or want to make a request described
          above, contact us by:
        </Para>
        <ContactList email={email} phone={phone} />
        <Para>
          To help us respond quickly, please tell us the phone number and email address you used with us and briefly
          describe your question or request. Please do not include sensitive information in your message.
        </Para>
      </Section>

      <Section def={P.changes}>
        <Para>
          We may update this Privacy Policy from time to time to reflect changes in our services, our practices, or the
          law. When we do, we will post the updated policy on this website and change the "Last updated" date at the top.
        </Para>
        <Para>
          If we make material changes, such as using personal information in a materially different way from what we
          described when we collected it, we will give more prominent notice, and we will get your consent where the law
          requires it. Changes do not expand the consent you previously gave to be called or texted.
        </Para>
        <Para>
          Your continued use of our website or services after an update takes effect means that the updated policy
          applies to information we collect from then on.
        </Para>
      </Section>
    </>
  );
}

// ---------------------------------------------------------------------------
// Terms of Service
// ---------------------------------------------------------------------------

export function TermsOfService({ brand, email, phone }: LegalProps): JSX.Element {
  return (
    <>
      <Dates />

      <Section def={T.acceptance}>
        <Para>
          These Terms of Service ("Terms") are an agreement between you and {brand} ("{brand}," "we," "us," or "our").
          They govern your use of our website, the phone numbers and text message programs published on it, our callback
          request forms, our affiliate campaign portal, and the related services we provide (together, the "Services").
        </Para>
        <Para>
          By using the website, calling or texting one of our numbers, submitting a form, or applying to a campaign, you
          agree to these Terms and to our Privacy Policy, which is part of these Terms. If you do not agree, please do
          not use the Services.
        </Para>
        <Para>
          <Lead>
            Please read the Dispute resolution section carefully. It requires you and us to resolve most disputes through
            binding individual arbitration instead of in court, waives the right to a jury trial and to take part in a
            class action, and explains how you can opt out within 30 days.
          </Lead>
        </Para>
        <Para>
          You must be at least 18 years old to use the Services. If you use the Services for a business, you confirm
          that you are authorized to accept these Terms on its behalf, and "you" includes that business.
        </Para>
        <Para>
          Business clients, contractor partners, and affiliates may also have a separate written agreement with us. If
          that agreement conflicts with these Terms, the separate agreement controls for the matters it covers.
        </Para>
      </Section>

      <Section def={T.service}>
        <Para>{brand} provides the following Services:</Para>
        <List>
          <li>
            <Lead>Call answering and lead delivery.</Lead> For home-service contractors and other small businesses, our
            live agents answer calls, qualify callers, set callback windows, and deliver call recordings, transcripts, and
            lead details by text message and email, usually within seconds of the call ending. These services are
            provided under a separate agreement with each business client.
          </li>
          <li>
            <Lead>Home-services connection service.</Lead> Homeowners and other consumers can call a number on one of our
            service pages or request a callback. We learn about the service you need and connect you with one or more
            independent contractors who serve your area. We are a referral and connection service only.
          </li>
          <li>
            <Lead>Affiliate campaign portal.</Lead> Marketers may apply to promote our campaigns. Applying does not
            create an account, and we may accept or decline any application at our discretion. Accepted affiliates are
            bound by the campaign terms we provide.
          </li>
        </List>
        <Para>
          <Lead>Consent to calls and texts.</Lead> When you submit a callback request, you give the consent described on
          the form, including your prior express written consent for us and the contractors identified to you to call
          and text you at the number you provide about your request, including by automated means. Consent applies even
          if your number is on a federal, state, or company do-not-call list, and giving it is not a condition of any
          purchase. Message frequency varies, and message and data rates may apply. Mobile carriers are not liable for
          delayed or undelivered messages. You can opt out at any time as described in our Privacy Policy.
        </Para>
        <Para>
          <Lead>No guarantees of availability or outcome.</Lead> We try to return callback requests within the window
          you choose and to find a suitable contractor, but we do not guarantee that a contractor will be available in
          your area, will contact you within any particular time, will give you a quote, or will accept your job.
          Information on our service pages is general and educational. It is not professional, engineering, or safety
          advice for your specific situation.
        </Para>
        <Para>
          <Lead>Not an emergency service.</Lead> Do not rely on the Services in an emergency. If you smell gas, see
          sparking or smoke, have a fire, or face any other immediate danger, leave the area and call 911 or your utility
          company's emergency line first.
        </Para>
        <Para>
          We may change, suspend, or discontinue any part of the Services at any time.
        </Para>
      </Section>

      <Section def={T.obligations}>
        <Para>When you use the Services, you agree that you will:</Para>
        <List>
          <li>give accurate, current, and complete information about yourself and your request;</li>
          <li>
            submit only your own name and a phone number that you own or are authorized to use, and never request a
            callback for someone else without their permission;
          </li>
          <li>
            request service only for a property you own or are authorized to arrange work for;
          </li>
          <li>
            not submit false, fraudulent, duplicate, or automated requests, or use bots, scripts, or other automated means
            to access, scrape, or submit forms on the website;
          </li>
          <li>
            not interfere with the website or our phone systems, try to gain unauthorized access to them, or introduce
            viruses or other harmful code;
          </li>
          <li>not harass, threaten, or abuse our agents, contractors, or other users;</li>
          <li>
            not copy, reproduce, or reuse the content, design, or trademarks on the website without our written
            permission; and
          </li>
          <li>comply with all laws that apply to your use of the Services.</li>
        </List>
        <Para>
          If you are an affiliate, you must also follow your campaign terms and all applicable laws, including the
          Telephone Consumer Protection Act, the Telemarketing Sales Rule, the CAN-SPAM Act, and state telemarketing and
          consumer protection laws. You may not use misleading advertising, make claims about {brand} or our contractor
          partners that we have not approved, or use our name or trademarks except as your campaign terms allow.
        </Para>
        <Para>
          To the extent the law allows, you agree to indemnify and hold harmless {brand} and its owners, employees, and
          agents from claims, losses, and expenses (including reasonable attorneys' fees) arising from your breach of
          these Terms, your violation of law, or information you submit that you were not authorized to submit.
        </Para>
      </Section>

      <Section def={T.contractors}>
        <Para>
          The contractors we connect you with are independent businesses. They are not employees, agents, partners, or
          joint venturers of {brand}, and they have no authority to make promises or agreements on our behalf.
        </Para>
        <Para>
          We do not perform, supervise, or control any home-service work, and we do not set contractors' prices, schedules,
          or methods. Any estimate, contract, work, warranty, or payment is solely between you and the contractor. We do
          not guarantee, warrant, or endorse the quality, safety, timeliness, price, or legality of any contractor's work,
          and we are not a party to any agreement you make with a contractor.
        </Para>
        <Para>
          Contractors compensate us for connections, and which contractors we connect you with may depend on their
          availability, service area, the type of work, and their business arrangements with us. A connection is not a
          recommendation or a ranking.
        </Para>
        <Para>Before hiring a contractor, you are responsible for:</Para>
        <List>
          <li>
            verifying that the contractor holds any license or registration your state or locality requires (for example,
            many home improvement contractors in Pennsylvania must register with the Office of Attorney General);
          </li>
          <li>confirming that the contractor carries appropriate liability and workers' compensation insurance;</li>
          <li>checking references and reviews and getting more than one estimate where appropriate;</li>
          <li>
            getting a written contract that describes the work, price, payment schedule, start and completion dates,
            permits, and warranty terms; and
          </li>
          <li>contracting directly with the contractor and resolving any disputes about the work with the contractor.</li>
        </List>
        <Para>
          If you have a problem with a contractor we connected you with, please let us know. We may use that information
          when deciding whether to keep working with the contractor, but we are not responsible for resolving disputes
          between you and a contractor.
        </Para>
      </Section>

      <Section def={T.fees}>
        <Para>
          Our home-services connection service is free for consumers. We do not charge you for calling us, requesting a
          callback, or being connected with a contractor, and we will never ask you to pay us for a referral. If anyone
          claiming to represent {brand} asks you to pay for a referral, do not pay, and contact us.
        </Para>
        <Para>
          Contractors compensate us for connections and leads. If you hire a contractor, you pay the contractor directly
          under the terms you agree with the contractor. We do not collect, hold, or process payments for contractors'
          work, and we are not responsible for the contractor's pricing or billing.
        </Para>
        <Para>
          Fees for business clients and contractor partners, and compensation for affiliates, are set out in separate
          written agreements or campaign terms. Those agreements govern pricing, billing, payment timing, and refunds for
          those relationships.
        </Para>
      </Section>

      <Section def={T.liability}>
        <Para>
          <Lead>Disclaimer of warranties.</Lead> The Services are provided "as is" and "as available." To the fullest
          extent the law allows, {brand} disclaims all warranties, express or implied, including implied warranties of
          merchantability, fitness for a particular purpose, title, and non-infringement. We do not warrant that the
          Services will be uninterrupted, timely, or error-free, that calls or messages will be delivered, or that any
          information on the website is complete or current.
        </Para>
        <Para>
          <Lead>No liability for contractors.</Lead> To the fullest extent the law allows, {brand} is not liable for the
          acts, omissions, work, products, pricing, or conduct of any contractor, business client, or affiliate, including
          any property damage, personal injury, delay, defective work, or financial loss related to services a
          contractor provides or fails to provide.
        </Para>
        <Para>
          <Lead>Excluded damages.</Lead> To the fullest extent the law allows, {brand} will not be liable for any
          indirect, incidental, special, consequential, exemplary, or punitive damages, or for lost profits, lost revenue,
          lost data, or loss of business opportunity, arising out of or related to the Services or these Terms, even if
          we were told such damages were possible.
        </Para>
        <Para>
          <Lead>
            Liability cap. To the fullest extent the law allows, {brand}'s total liability to you for all claims arising
            out of or related to the Services or these Terms is limited to $100 per incident.
          </Lead>{" "}
          All claims arising from the same event, or from a series of related events, count as one incident. This limit
          applies whatever the legal theory, whether contract, tort (including negligence), statute, or otherwise.
        </Para>
        <Para>
          Some states do not allow certain warranties to be disclaimed or certain damages to be limited, so some of the
          limits above may not apply to you. Nothing in these Terms limits liability that cannot be limited under
          applicable law, such as liability for fraud or for gross negligence or willful misconduct where the law does
          not permit a limit. The liability terms for business clients, contractor partners, and affiliates are set out
          in their separate agreements where those agreements address them.
        </Para>
      </Section>

      <Section def={T.recording}>
        <Para>
          Calls to and from {brand} may be recorded and monitored for quality assurance, training, compliance, and
          dispute resolution. This includes calls to the tracked numbers on our service pages, calls our agents answer
          for business clients, and callbacks we make in response to your requests.
        </Para>
        <Para>
          By calling us, or by staying on the line on a call we make to you, you consent to the call being recorded and
          monitored. Some states, including Pennsylvania, require the consent of everyone on a call before it is
          recorded; this notice, together with any announcement at the start of a call, is intended to get that
          consent. If you do not want a call to be recorded, please end the call and contact us by email at{" "}
          <Email email={email} /> instead.
        </Para>
        <Para>
          We may create written transcripts of recorded calls, including by automated transcription. Recordings and
          transcripts of calls answered for a business client are delivered to that business, and recordings of consumer
          calls may be shared with the contractor partners connected to the request, as described in our Privacy Policy.
        </Para>
        <Para>
          We retain call recordings and transcripts for up to {RETENTION}, unless a law requires us to keep them longer
          or we must preserve them for a pending legal claim, investigation, or dispute.
        </Para>
      </Section>

      <Section def={T.disputes}>
        <Para>
          <Lead>Informal resolution first.</Lead> Most concerns can be resolved quickly. Before starting arbitration or a
          small-claims case, you agree to send us a written description of your claim and the relief you want by email
          to <Email email={email} />, and we agree to do the same for any claim we have against you, using the contact
          information we have for you. If the dispute is not resolved within 30 days after the notice is received, either
          party may begin arbitration.
        </Para>
        <Para>
          <Lead>Binding arbitration.</Lead> Except as stated below, you and {brand} agree that any dispute, claim, or
          controversy arising out of or relating to these Terms, the Services, any call or text message, our Privacy
          Policy, or the relationship between you and us, including whether a claim must be arbitrated, will be resolved
          by final and binding arbitration on an individual basis, and not in court. The arbitration will be administered
          by the American Arbitration Association ("AAA") under its Consumer Arbitration Rules if you are an individual
          using the Services for personal, family, or household purposes, and otherwise under its Commercial Arbitration
          Rules. A single neutral arbitrator will decide the dispute.
        </Para>
        <Para>
          <Lead>Place of arbitration.</Lead> The arbitration will take place in Erie County, Pennsylvania. Where the
          applicable rules allow, the arbitrator may conduct hearings by telephone or video or decide the dispute on
          written submissions, so that you are not required to travel. Payment of filing, administration, and arbitrator
          fees will be governed by the AAA's rules, which limit the fees an individual consumer must pay. The arbitrator
          may award any individual relief that a court could award, but only in favor of the individual party seeking
          relief and only to the extent needed to provide relief for that party's individual claim. Judgment on the award
          may be entered in any court with jurisdiction.
        </Para>
        <Para>
          <Lead>Class action and jury trial waiver.</Lead> You and {brand} each agree to bring claims only in an
          individual capacity, and not as a plaintiff or class member in any purported class, collective, consolidated,
          or representative proceeding. The arbitrator may not consolidate more than one person's claims or preside over
          any form of class or representative proceeding. You and {brand} each waive any right to a jury trial. If this
          class action waiver is found unenforceable as to a particular claim, that claim will be decided by a court,
          not in arbitration, and the rest of this section will remain in effect.
        </Para>
        <Para>
          <Lead>Exceptions.</Lead> Either party may instead bring an individual claim in small-claims court if the claim
          qualifies and remains there on an individual basis. Either party may also ask a court for an injunction to
          stop the misuse of its intellectual property or unauthorized access to its systems.
        </Para>
        <Para>
          <Lead>Your right to opt out.</Lead> You may opt out of this agreement to arbitrate by sending written notice
          within 30 days after the date you first accept these Terms (for example, by first using the website, calling
          us, or submitting a form). Send the notice by email to <Email email={email} /> with the subject line
          "Arbitration Opt-Out," and include your name, the phone number and email address you used with us, and a clear
          statement that you opt out of arbitration. Opting out will not affect any other part of these Terms, and it
          will not affect any earlier or separate arbitration agreement you have with us.
        </Para>
        <Para>
          This section survives the end of your use of the Services and the termination of these Terms.
        </Para>
      </Section>

      <Section def={T.termination}>
        <Para>
          You may stop using the Services at any time. To stop calls and texts from us, follow the opt-out instructions
          in our Privacy Policy.
        </Para>
        <Para>
          We may suspend or end your access to all or part of the Services at any time, with or without notice, if we
          believe you have violated these Terms, submitted false or unauthorized information, abused our agents or
          systems, or exposed us or others to legal risk, or if we discontinue the Services. This includes blocking phone
          numbers, rejecting or withdrawing affiliate approval, and declining to process requests.
        </Para>
        <Para>
          Termination does not affect rights and obligations that arose before it. The sections on contractor
          relationships, limitation of liability, call recording, dispute resolution, and governing law, your indemnity
          obligations, and any other terms that by their nature should continue, survive termination. Business clients,
          contractor partners, and affiliates may terminate their relationships with us as their separate agreements
          provide.
        </Para>
      </Section>

      <Section def={T.law}>
        <Para>
          These Terms and any dispute between you and {brand} are governed by the laws of the Commonwealth of
          Pennsylvania, without regard to its conflict-of-laws rules, and by applicable federal law. The Federal
          Arbitration Act governs the interpretation and enforcement of the Dispute resolution section. Nothing in this
          choice of Pennsylvania law takes away any protection that the consumer protection laws of your state of
          residence give you and that cannot be waived by agreement.
        </Para>
        <Para>
          For any dispute that is not subject to arbitration, you and {brand} agree to the exclusive jurisdiction of the
          state courts located in Erie County, Pennsylvania, and the United States District Court for the Western
          District of Pennsylvania, except for small-claims matters, which may be brought in any court with proper
          jurisdiction.
        </Para>
        <Para>
          If any provision of these Terms is found unenforceable, the rest of the Terms will remain in effect, and the
          unenforceable provision will be enforced to the fullest extent allowed. Our failure to enforce any provision is
          not a waiver of it. You may not assign these Terms without our written consent; we may assign them in
          connection with a merger, acquisition, or sale of our business. These Terms, together with our Privacy Policy
          and any separate written agreement described above, are the entire agreement between you and us about the
          Services.
        </Para>
        <Para>
          We may update these Terms from time to time by posting a new version on this website with a new "Last updated"
          date. Changes apply from the time they are posted and do not apply to disputes that arose before then. If you
          continue to use the Services after a change, you accept the updated Terms.
        </Para>
      </Section>

      <Section def={T.contact}>
        <Para>If you have questions about these Terms or the Services, contact us by:</Para>
        <ContactList email={email} phone={phone} />
        <Para>
          Notices to us under these Terms, including dispute notices and arbitration opt-outs, must be sent by email to
          the address above. We may send notices to you using the email address or phone number you gave us, or by
          posting them on the website.
        </Para>
      </Section>
    </>
  );
}
