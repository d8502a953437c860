//! Submissions besides leads (account requests, campaign applications): stored with their
//! e-mail in one transaction on both stores, deduplicated, and delivered by the outbox worker.

use crate::common;

use std::time::Duration;

use serde_json::json;
use site_server::leads::RequestContext;
use site_server::store::{DUPLICATE_WINDOW_MS, Mail, NewSubmission, Notice, Outbox, SubmissionKind, now_ms};

use common::stores::stores;

fn request(email: &str) -> NewSubmission {
    NewSubmission {
        kind: SubmissionKind::AccountRequest,
        email: email.into(),
        phone: Some("+14125550134".into()),
        data: json!({ "accountType": "homeowner", "firstName": "Dana", "lastName": "Whitfield", "email": email }),
        context: RequestContext {
            ip: Some("203.0.113.7".into()),
            user_agent: Some("Mozilla/5.0 (test)".into()),
            page_url: Some("https://www.ringready.example/".into()),
            ..Default::default()
        },
    }
}

fn mail(subject: &str) -> Mail {
    Mail {
        subject: subject.into(),
        body: "Name: Dana Whitfield\n".into(),
    }
}

#[tokio::test]
async fn a_submission_is_stored_with_its_e_mail_and_read_back() {
    for (name, store) in stores().await {
        let now = now_ms();
        let submitted = store
            .submit_form(
                request("Dana@Example.com"),
                Some(mail("New Homeowner Registration - Dana Whitfield")),
                now,
            )
            .await
            .expect("submit");
        assert!(!submitted.duplicate, "{name}");
        let stored = store.submission(&submitted.id).await.expect("read").expect("present");
        assert_eq!(stored.kind, SubmissionKind::AccountRequest, "{name}");
        assert_eq!(stored.email, "dana@example.com", "{name}: kept in lower case");
        assert_eq!(stored.data["firstName"], "Dana", "{name}");
        assert_eq!(stored.received_at_ms, now, "{name}");
        assert_eq!(stored.status, "new", "{name}");
        assert_eq!(stored.ip.as_deref(), Some("203.0.113.7"), "{name}");
        assert_eq!(store.outbox_counts(Outbox::Mail).await.expect("counts").pending, 1, "{name}");
        assert!(store.submission("no-such-id").await.expect("read").is_none(), "{name}");
    }
}

#[tokio::test]
async fn a_repeat_within_the_window_gets_the_first_id_and_no_second_e_mail() {
    for (name, store) in stores().await {
        let now = now_ms();
        let first = store
            .submit_form(request("a@example.com"), Some(mail("s")), now)
            .await
            .expect("first");
        let again = store
            .submit_form(request("A@EXAMPLE.com"), Some(mail("s")), now + 60_000)
            .await
            .expect("again");
        assert_eq!((again.id.as_str(), again.duplicate), (first.id.as_str(), true), "{name}");
        assert_eq!(store.outbox_counts(Outbox::Mail).await.expect("counts").pending, 1, "{name}");
        let later = store
            .submit_form(request("a@example.com"), Some(mail("s")), now + DUPLICATE_WINDOW_MS + 1)
            .await
            .expect("later");
        assert!(!later.duplicate && later.id != first.id, "{name}: a new one after the window");
        // Without e-mail set up, the record is still kept.
        let quiet = store.submit_form(request("b@example.com"), None, now).await.expect("quiet");
        assert!(store.submission(&quiet.id).await.expect("read").is_some(), "{name}");
        assert_eq!(store.outbox_counts(Outbox::Mail).await.expect("counts").pending, 2, "{name}");
    }
}

#[tokio::test]
async fn due_e_mails_are_leased_once_then_recorded() {
    for (name, store) in stores().await {
        let now = now_ms();
        let submitted = store
            .submit_form(request("c@example.com"), Some(mail("Subject C")), now)
            .await
            .expect("submit");
        let claimed = store.claim_due(Outbox::Mail, now, 60_000, 10).await.expect("claim");
        assert_eq!(claimed.len(), 1, "{name}");
        let Notice::Mail { submission_id, mail } = &claimed[0].notice else {
            panic!("{name}: a submission e-mail")
        };
        assert_eq!(
            (mail.subject.as_str(), submission_id.as_str()),
            ("Subject C", submitted.id.as_str())
        );
        assert!(
            store.claim_due(Outbox::Mail, now, 60_000, 10).await.expect("claim").is_empty(),
            "{name}: leased"
        );
        let due_in = store.next_due_in_ms(now_ms()).await.expect("due").expect("pending");
        assert!(
            (50_000..=60_000).contains(&due_in),
            "{name}: due when the lease ends, a minute after the claim: {due_in}"
        );
        store
            .mark_retry(Outbox::Mail, claimed[0].id, claimed[0].claim, 1, now + 5_000, "421 try later")
            .await
            .expect("retry");
        assert_eq!(store.next_due_in_ms(now).await.expect("due"), Some(5_000), "{name}");
        let again = store.claim_due(Outbox::Mail, now + 5_000, 60_000, 10).await.expect("claim");
        assert_eq!(again[0].attempts, 1, "{name}");
        store
            .mark_delivered(Outbox::Mail, again[0].id, again[0].claim, 2, now + 6_000)
            .await
            .expect("delivered");
        let counts = store.outbox_counts(Outbox::Mail).await.expect("counts");
        assert_eq!((counts.pending, counts.delivered, counts.failed), (0, 1, 0), "{name}");
        assert_eq!(store.next_due_in_ms(now).await.expect("due"), None, "{name}");
    }
}

#[tokio::test]
async fn the_retention_purge_removes_old_submissions_and_their_e_mails() {
    for (name, store) in stores().await {
        let now = now_ms();
        let old = store
            .submit_form(request("old@example.com"), Some(mail("old")), now - 1_000)
            .await
            .expect("old");
        let new = store
            .submit_form(request("new@example.com"), Some(mail("new")), now)
            .await
            .expect("new");
        store.purge_before(now).await.expect("purge");
        assert!(store.submission(&old.id).await.expect("read").is_none(), "{name}");
        assert!(store.submission(&new.id).await.expect("read").is_some(), "{name}");
        assert_eq!(store.outbox_counts(Outbox::Mail).await.expect("counts").pending, 1, "{name}");
    }
}

#[tokio::test]
async fn the_worker_delivers_a_submission_e_mail_to_the_real_smtp_server() {
    let smtp = common::SmtpServer::start().await;
    let overlay: toml::Table = format!(
        "[notify]\nsmtp_url = \"{}\"\nrecipients = [\"sales@ringready.example\"]",
        smtp.url()
    )
    .parse()
    .expect("toml");
    let config = site_server::config::Config::build(Some(overlay), &[]).expect("config");
    let s = common::start_with(config, site_server::assets::SSR_BUNDLE).await;
    assert!(s.state.notifier.mail_enabled());
    let submitted = s
        .state
        .store
        .submit_form(
            request("d@example.com"),
            Some(mail("New Homeowner Registration - Dana Whitfield")),
            now_ms(),
        )
        .await
        .expect("submit");
    s.state.notifier.wake.notify_one();
    let messages = smtp.wait_for(1, 10).await;
    let text = common::unfold_qp(&messages[0]);
    assert!(text.contains("To: sales@ringready.example"), "{text}");
    assert!(text.contains("Subject: New Homeowner Registration - Dana Whitfield"), "{text}");
    assert!(text.contains("Name: Dana Whitfield"), "{text}");
    assert!(
        text.contains(&format!("Message-ID: <submission-{}.email@ringready.example>", submitted.id)),
        "the message id names the submission: {text}"
    );
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(s.state.store.outbox_counts(Outbox::Mail).await.expect("counts").delivered, 1);
    let metrics = s.metrics().await;
    assert!(
        metrics.contains("site_notification_deliveries_total{channel=\"submission_email\",outcome=\"delivered\"} 1"),
        "{metrics}"
    );
}
