//! Data requests in the staff console, on both stores: every record of a person found by a
//! phone number typed in any format or by e-mail; deleted on request, leads erased down to
//! their consent record (kept, as the law requires), submissions deleted, each one audited;
//! other people's records untouched; every notification of the erased records ended, so
//! nothing about the person is sent afterwards, whatever state it was in; and every column
//! of both schemas either cleared by an erasure or listed as kept on purpose.

use crate::common;

use std::collections::BTreeSet;
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::LOCATION;
use serde_json::json;
use site_server::assets;
use site_server::leads::{Certificate, NewLead, RequestContext, Utm};
use site_server::store::{Channel, ERASURE, Fate, Mail, NewSubmission, Outbox, Person, Retried, RetryScope, SubmissionKind, now_ms};

use common::admin::{add_staff, audit, page, post, sign_in};
use common::stores::{columns, execute, raw_stores, stores, texts};
use common::{
    Hook, SmtpServer, TestServer, accepted_lead, config, consent_text, eventually, give_up_webhook, lead_body, start_with_store,
    unescape_html,
};

fn submission(kind: SubmissionKind, email: &str, phone: &str) -> NewSubmission {
    NewSubmission {
        kind,
        email: email.into(),
        phone: Some(phone.into()),
        data: json!({ "businessName": "Whitfield Heating", "email": email }),
        context: RequestContext {
            ip: Some("203.0.113.7".into()),
            ..Default::default()
        },
    }
}

async fn submit_lead(server: &TestServer, phone: &str) -> String {
    accepted_lead(
        server,
        &lead_body("hvac", phone),
        "https://www.ringready.example/hvac?utm_source=google",
    )
    .await
}

#[tokio::test]
async fn a_persons_records_are_found_and_deleted_keeping_the_consent_record() {
    for (name, store) in stores().await {
        let server = start_with_store(config(&[]), assets::SSR_BUNDLE, store).await;
        add_staff(&server, "cy@ringready.example").await;
        let session = sign_in(&server, "cy@ringready.example").await;
        let store = &server.state.store;
        let now = site_server::store::now_ms();
        let lead = submit_lead(&server, "(412) 555-0134").await;
        let other_lead = submit_lead(&server, "(412) 555-0199").await;
        let request = store
            .submit_form(
                submission(SubmissionKind::AccountRequest, "dana@example.com", "+14125550134"),
                None,
                now,
            )
            .await
            .expect("stored")
            .id;
        let by_email = store
            .submit_form(
                submission(SubmissionKind::CampaignApplication, "dana@example.com", "+14125550100"),
                None,
                now,
            )
            .await
            .expect("stored")
            .id;
        let other = store
            .submit_form(
                submission(SubmissionKind::AccountRequest, "lee@example.com", "+14125550199"),
                None,
                now,
            )
            .await
            .expect("stored")
            .id;
        let before = store.lead_detail(&lead).await.expect("read").expect("lead").lead;

        let (html, csrf) = page(&server, &session, "/admin/data-requests?q=412.555.0134").await;
        assert!(
            html.contains(&format!("/admin/leads/{lead}")) && html.contains(&format!("/admin/submissions/{request}")),
            "{name}"
        );
        assert!(
            !html.contains(&other_lead) && !html.contains(&by_email) && !html.contains(&other),
            "{name}: only this number's"
        );
        let (html, _) = page(&server, &session, "/admin/data-requests?q=Dana%40Example.com").await;
        assert!(
            html.contains(&request) && html.contains(&by_email) && !html.contains(&lead),
            "{name}: by e-mail"
        );
        let (html, _) = page(&server, &session, "/admin/data-requests?q=555-01").await;
        assert!(
            unescape_html(&html).contains("neither a US phone number nor an e-mail address"),
            "{name}"
        );

        let r = post(&server, &session, "/admin/data-requests/erase", &[("q", "412.555.0134")]).await;
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "{name}: no CSRF token");
        assert!(store.submission(&request).await.expect("read").is_some(), "{name}");

        let r = post(
            &server,
            &session,
            "/admin/data-requests/erase",
            &[("csrf", &csrf), ("q", "+1 412 555 0134")],
        )
        .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{name}");
        assert!(r.headers()[LOCATION].to_str().expect("location").ends_with("&done=1.1"), "{name}");

        let after = store.lead_detail(&lead).await.expect("read").expect("the consent record is kept");
        assert!(after.erased_ms.is_some(), "{name}");
        let l = after.lead;
        assert_eq!(
            (
                &l.consent_text,
                &l.consent_sha256,
                &l.cert_url,
                &l.cert_token,
                &l.ip,
                l.received_at_ms,
                &l.phone
            ),
            (
                &before.consent_text,
                &before.consent_sha256,
                &before.cert_url,
                &before.cert_token,
                &before.ip,
                before.received_at_ms,
                &before.phone
            ),
            "{name}: the consent record"
        );
        assert!(
            before.ip.is_some() && before.utm_source.is_some(),
            "{name}: there was something to erase"
        );
        assert_eq!(l.full_name, "", "{name}");
        assert_eq!(
            (&l.zip_code, &l.user_agent, &l.page_url, &l.referrer, &l.utm_source),
            (&None, &None, &None, &None, &None),
            "{name}"
        );
        assert!(store.submission(&request).await.expect("read").is_none(), "{name}: deleted");
        assert!(store.submission(&by_email).await.expect("read").is_some(), "{name}: another number");
        assert!(store.submission(&other).await.expect("read").is_some(), "{name}");
        let untouched = store.lead_detail(&other_lead).await.expect("read").expect("lead");
        assert!(
            untouched.erased_ms.is_none() && untouched.lead.full_name == "Maria Gonzalez",
            "{name}"
        );

        let log = store.audit_log(None, 10).await.expect("audit");
        let targets: Vec<(&str, &str)> = log.iter().map(|e| (e.action.as_str(), e.target.as_deref().unwrap_or(""))).collect();
        assert!(targets.contains(&("erase", format!("lead:{lead}").as_str())), "{name}: {targets:?}");
        assert!(
            targets.contains(&("delete", format!("submission:{request}").as_str())),
            "{name}: {targets:?}"
        );

        let (html, _) = page(&server, &session, "/admin/data-requests?q=%2B14125550134&done=1.1").await;
        assert!(
            html.contains("consent record kept") && !html.contains("Delete these records"),
            "{name}: nothing left to delete"
        );

        let r = post(
            &server,
            &session,
            "/admin/data-requests/erase",
            &[("csrf", &csrf), ("q", "DANA@example.com")],
        )
        .await;
        assert!(r.headers()[LOCATION].to_str().expect("location").ends_with("&done=0.1"), "{name}");
        assert!(store.submission(&by_email).await.expect("read").is_none(), "{name}");
        assert!(store.submission(&other).await.expect("read").is_some(), "{name}");
    }
}

#[tokio::test]
async fn an_erasure_ends_every_notification_of_the_person_and_nothing_is_sent_after() {
    for (name, store, raw) in raw_stores().await {
        let mut smtp = SmtpServer::start().await;
        let hook = Hook::start(503).await;
        let cfg = config(&[
            ("SMTP_URL", &smtp.url()),
            ("NOTIFY_RECIPIENTS", "dispatch@ringready.example"),
            ("WEBHOOK_URL", &hook.url),
            ("WEBHOOK_SECRET", "a webhook secret of some length"),
            ("NOTIFY_RETRY_BASE_MS", "100"),
            ("NOTIFY_RETRY_MAX_MS", "200"),
            ("RATE_LIMIT_PER_MINUTE", "100000"),
        ]);
        // The mail server is down: every e-mail waits in the outbox.
        smtp.stop();
        let server = start_with_store(cfg, assets::SSR_BUNDLE, store).await;
        add_staff(&server, "eli@ringready.example").await;
        let session = sign_in(&server, "eli@ringready.example").await;
        // The page's address carried the visitor's name and e-mail in its query string.
        let referer = "https://www.ringready.example/hvac?name=Dana+Whitfield&email=dana%40example.com";
        let pending = accepted_lead(&server, &lead_body("hvac", "(412) 555-0134"), referer).await;
        let failed = accepted_lead(&server, &lead_body("roofing", "412-555-0134"), referer).await;
        let request = server
            .client
            .post(server.url("/api/account-requests"))
            .json(&json!({
                "source": "registration", "accountType": "homeowner", "firstName": "Dana", "lastName": "Whitfield",
                "email": "dana@example.com", "phone": "(412) 555-0134", "address": "118 Maple Street, Erie, PA 16501",
                "propertyType": "single-family", "serviceNeeds": "Roof leak over the kitchen.", "hp_website": ""
            }))
            .send()
            .await
            .expect("post");
        assert_eq!(request.status(), StatusCode::CREATED, "{name}");
        assert_eq!(
            texts(&raw, &format!("SELECT seen_referer FROM leads WHERE id = '{pending}'")).await,
            [Some(referer.to_string())],
            "{name}: the Referer header was kept"
        );
        for id in [&pending, &failed] {
            eventually(10, "each webhook is tried", async || hook.tries(id) >= 1).await;
        }
        // The roofing lead's webhook is given up, as the worker does after days.
        give_up_webhook(&server.state.store, &failed).await;
        let (html, csrf) = page(&server, &session, &format!("/admin/leads/{failed}")).await;
        assert!(html.contains("Retry webhook"), "{name}");
        let row = server
            .state
            .store
            .lead_detail(&failed)
            .await
            .expect("read")
            .expect("lead")
            .deliveries;
        let webhook_row = row.iter().find(|o| o.channel == "webhook").expect("webhook").id;

        let r = post(
            &server,
            &session,
            "/admin/data-requests/erase",
            &[("csrf", &csrf), ("q", "412.555.0134")],
        )
        .await;
        assert!(r.headers()[LOCATION].to_str().expect("location").ends_with("&done=2.1"), "{name}");

        // The page opened before offers Retry; pressing it sends nothing.
        let r = post(
            &server,
            &session,
            &format!("/admin/leads/{failed}/retry"),
            &[("csrf", &csrf), ("delivery", &webhook_row.to_string())],
        )
        .await;
        assert_eq!(
            r.headers()[LOCATION],
            format!("/admin/leads/{failed}?done=erased").as_str(),
            "{name}"
        );
        let (html, _) = page(&server, &session, &format!("/admin/leads/{failed}")).await;
        assert!(html.contains("Erased on request") && !html.contains("Retry webhook"), "{name}");
        assert_eq!(
            server
                .state
                .store
                .retry_failed(Outbox::Leads, RetryScope::All, now_ms())
                .await
                .expect("retry"),
            Retried::default(),
            "{name}: `site outbox retry --all` finds nothing of theirs"
        );

        // Both receivers are back: another person's lead goes out, nothing of this one's.
        hook.answer(200);
        smtp.resume().await;
        let other = accepted_lead(&server, &lead_body("hvac", "(412) 555-0199"), "").await;
        eventually(15, "the other lead's webhook", async || hook.delivered(&other) == 1).await;
        eventually(15, "the other lead's e-mail", async || {
            smtp.messages().iter().any(|m| m.contains(&other))
        })
        .await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!((hook.delivered(&pending), hook.delivered(&failed)), (0, 0), "{name}");
        let mails = smtp.messages().concat();
        assert!(
            !mails.contains(&pending) && !mails.contains(&failed) && !mails.contains("Whitfield") && !mails.contains("dana@example.com"),
            "{name}: no e-mail about the erased person"
        );
        assert_eq!(
            server.state.store.outbox_counts(Outbox::Mail).await.expect("counts").pending,
            0,
            "{name}: the account request's e-mail went with it"
        );
        for id in [&pending, &failed] {
            assert_eq!(
                texts(&raw, &format!("SELECT seen_referer FROM leads WHERE id = '{id}'")).await,
                [None],
                "{name}"
            );
            let d = server.state.store.lead_detail(id).await.expect("read").expect("consent record");
            assert!(d.deliveries.is_empty(), "{name}: {:?}", d.deliveries);
            assert_eq!(d.delivery_status, "none", "{name}");
            assert!(d.attempts.iter().all(|a| a.error.is_none()), "{name}: {:?}", d.attempts);
        }
    }
}

/// What the test fills each cleared column of an erased lead's rows with.
const PERSONAL: &str = "Dana Whitfield, dana@example.com";

#[tokio::test]
async fn every_column_is_either_cleared_by_a_data_request_or_kept_on_purpose() {
    for (name, store, raw) in raw_stores().await {
        let live = columns(&raw).await;
        let listed: BTreeSet<(String, String)> = ERASURE
            .iter()
            .filter(|t| name == "sqlite" || !t.sqlite_only)
            .flat_map(|t| t.columns.iter().map(|(c, _)| (t.table.to_string(), c.to_string())))
            .collect();
        let unlisted: Vec<_> = live.difference(&listed).collect();
        assert!(
            unlisted.is_empty(),
            "{name}: columns that server/src/store/erasure.rs (ERASURE) does not name: {unlisted:?}. \
             Add each one: cleared by a data request, or kept with the reason."
        );
        let stale: Vec<_> = listed.difference(&live).collect();
        assert!(
            stale.is_empty(),
            "{name}: ERASURE names columns the schema does not have: {stale:?}"
        );
        for t in ERASURE {
            for (column, fate) in t.columns {
                if let Fate::Kept(why) = fate {
                    assert!(why.len() > 10, "{name}: {}.{column} is kept without a reason", t.table);
                }
            }
        }

        // And the list is what an erasure does: a lead with every field, its notifications in
        // every state, and every cleared column of its rows filled.
        let now = now_ms();
        let phone = "+14125550134";
        let text = consent_text();
        let lead = NewLead {
            service_slug: "hvac".into(),
            phone: phone.into(),
            zip_code: Some("16501".into()),
            consent_sha256: site_server::leads::consent::sha256_hex(&text),
            consent_text: text,
            certificate: Certificate {
                token: Some("tok-1".into()),
                cert_url: Some("https://cert.trustedform.com/1".into()),
                ping_url: Some("https://ping.trustedform.com/1".into()),
            },
            context: RequestContext {
                ip: Some("203.0.113.7".into()),
                user_agent: Some("Mozilla/5.0".into()),
                page_url: Some("https://www.ringready.example/hvac?name=Dana".into()),
                referrer: Some("https://search.example/?q=dana".into()),
                seen_referer: Some("https://www.ringready.example/hvac?email=dana%40example.com".into()),
                utm: Utm {
                    source: Some("a".into()),
                    medium: Some("b".into()),
                    campaign: Some("c".into()),
                    term: Some("d".into()),
                    content: Some("e".into()),
                },
            },
            ..common::new_lead(phone, "hvac")
        };
        let id = store
            .submit_lead(lead.clone(), vec![Channel::Email, Channel::Webhook], now)
            .await
            .expect("lead")
            .id;
        let claimed = store.claim_due(Outbox::Leads, now, 60_000, 10).await.expect("claim");
        for item in &claimed {
            let recorded = match item.channel() {
                Some(Channel::Email) => store
                    .mark_delivered(Outbox::Leads, item.id, item.claim, 1, now)
                    .await
                    .expect("delivered"),
                _ => store
                    .mark_failed(Outbox::Leads, item.id, item.claim, 1, "webhook answered 503")
                    .await
                    .expect("failed"),
            };
            assert!(recorded, "{name}");
        }
        // A second lead of the person, whose traffic source (a link's utm_source) names them:
        // the funnel's daily count of that source must not outlive the erasure.
        let mut named_source = lead.clone();
        named_source.service_slug = "roofing".into();
        named_source.context.utm.source = Some("dana.whitfield@example.com".into());
        store.submit_lead(named_source, vec![], now).await.expect("second lead");
        let submission = store
            .submit_form(
                NewSubmission {
                    kind: SubmissionKind::AccountRequest,
                    email: "dana@example.com".into(),
                    phone: Some(phone.into()),
                    data: json!({ "firstName": "Dana" }),
                    context: RequestContext::default(),
                },
                Some(Mail {
                    subject: "New Account Registration - Homeowner - Dana Whitfield".into(),
                    body: PERSONAL.into(),
                }),
                now,
            )
            .await
            .expect("submission")
            .id;
        for t in ERASURE {
            let Some(key) = t.lead_key else { continue };
            for (column, fate) in t.columns {
                if matches!(fate, Fate::Cleared | Fate::Emptied) {
                    execute(
                        &raw,
                        &format!("UPDATE {} SET {column} = '{PERSONAL}' WHERE {key} = '{id}'", t.table),
                    )
                    .await;
                }
            }
        }
        let done = store
            .erase_person(&Person::PhoneE164(phone.into()), audit("erase"), now)
            .await
            .expect("erase");
        assert_eq!((done.leads, done.submissions), (2, 1), "{name}");
        assert_eq!(
            texts(&raw, "SELECT COUNT(*) FROM lead_days WHERE key LIKE '%whitfield%'").await,
            [Some("0".to_string())],
            "{name}: a funnel source naming the erased person is left in lead_days"
        );
        for t in ERASURE {
            let Some(key) = t.lead_key else { continue };
            let rows = texts(&raw, &format!("SELECT COUNT(*) FROM {} WHERE {key} = '{id}'", t.table)).await;
            assert_ne!(rows, [Some("0".to_string())], "{name}: {} keeps rows to check", t.table);
            for (column, fate) in t.columns {
                let left = match fate {
                    Fate::Cleared => format!("{column} IS NOT NULL"),
                    Fate::Emptied => format!("{column} <> ''"),
                    Fate::Deleted | Fate::Kept(_) => continue,
                };
                assert_eq!(
                    texts(&raw, &format!("SELECT COUNT(*) FROM {} WHERE {key} = '{id}' AND {left}", t.table)).await,
                    [Some("0".to_string())],
                    "{name}: {}.{column} is listed as cleared but kept its value",
                    t.table
                );
            }
            if let Some(deleted) = t.deleted_rows {
                assert_eq!(
                    texts(
                        &raw,
                        &format!("SELECT COUNT(*) FROM {} WHERE {key} = '{id}' AND {deleted}", t.table)
                    )
                    .await,
                    [Some("0".to_string())],
                    "{name}: {} rows of an erased lead that are deleted",
                    t.table
                );
            }
        }
        for (table, key) in [("submissions", "id"), ("mail_outbox", "submission_id")] {
            assert!(
                ERASURE
                    .iter()
                    .find(|t| t.table == table)
                    .is_some_and(|t| t.columns.iter().all(|(_, f)| *f == Fate::Deleted)),
                "{name}: {table}"
            );
            assert_eq!(
                texts(&raw, &format!("SELECT COUNT(*) FROM {table} WHERE {key} = '{submission}'")).await,
                [Some("0".to_string())],
                "{name}: {table} rows deleted"
            );
        }
        // Nothing of it can be found by name any more (SQLite's name index follows the name).
        let found = store
            .list_leads(
                &site_server::store::LeadFilter {
                    name_words: vec!["whitfield".into()],
                    ..Default::default()
                },
                10,
            )
            .await
            .expect("list");
        assert!(found.is_empty(), "{name}");
    }
}
