//! The local settings API, served by the agent itself (behind its local guard):
//!
//! - `GET /api/settings` → `{revision, etag, matchesDefault, skills, card}`
//! - `POST /api/settings/preview` `{baseRevision, skills}` → `{card}` (the same body as a
//!   save; nothing is saved)
//! - `PUT /api/settings` `{baseRevision, skills}` → `{revision, etag}`
//! - `PATCH /api/settings/skills/{id}` `{baseRevision, …fields to change}` (any of `name`,
//!   `description`, `tags`, `examples`, `enabled`, `allowedScope`, `excluded`,
//!   `answerContent`) → `{revision, etag}`
//!
//! Errors: `{"error": {"code", "message", …}}` — 400 `bad_request` (malformed JSON,
//! wrong types, unknown fields, an empty change; the message names the field as the body
//! spelled it), 415 `unsupported_media_type` (not `application/json`), 404 `unknown_skill`, 409
//! `stale_revision` (with `currentRevision`), 413 when the body is over 256 KiB, 422
//! `invalid_skills` (with `fields`), 500 `not_saved` (the durable write failed; nothing
//! changed). A saved revision is acknowledged only after it is written.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::model::{FieldError, SkillPatch, SkillSet};
use crate::settings::{SaveError, Settings, Snapshot};

/// Largest settings body accepted.
pub const BODY_LIMIT: usize = 256 * 1024;

/// The body of a save and of a preview.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SaveBody {
    base_revision: u64,
    skills: Vec<crate::Skill>,
}

fn error(status: StatusCode, code: &str, message: &str, extra: Value) -> Response {
    let mut err = json!({"code": code, "message": message});
    if let (Some(obj), Value::Object(more)) = (err.as_object_mut(), extra) {
        obj.extend(more);
    }
    (status, Json(json!({ "error": err }))).into_response()
}

/// Decodes a JSON body: `application/json` (415 otherwise), at most 256 KiB (413), and
/// a message naming the field as the body wrote it (`baseRevision`, `skills[0].tags`),
/// or the line and column of a syntax error (400). Values are never quoted back.
fn decode<T: DeserializeOwned>(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, Box<Response>> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(Box::new(error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "send the body as application/json",
            Value::Null,
        )));
    }
    let bytes = body.map_err(|rejection| {
        Box::new(if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            error(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", "the body is over 256 KiB", Value::Null)
        } else {
            error(StatusCode::BAD_REQUEST, "bad_request", "the body could not be read", Value::Null)
        })
    })?;
    let text = std::str::from_utf8(&bytes).map_err(|_| {
        Box::new(error(StatusCode::BAD_REQUEST, "bad_request", "the body is not UTF-8 text", Value::Null))
    })?;
    conf::parse::<T>("body", text).map_err(|e| {
        let message =
            if e.field.is_empty() { e.problem } else { format!("field {}: {}", e.field, e.problem) };
        Box::new(error(StatusCode::BAD_REQUEST, "bad_request", &message, Value::Null))
    })
}

fn refused(e: SaveError) -> Response {
    match e {
        SaveError::Stale { current_revision } => error(
            StatusCode::CONFLICT,
            "stale_revision",
            "the settings changed since this editor loaded them; reload and apply your edit again",
            json!({ "currentRevision": current_revision }),
        ),
        SaveError::Invalid(fields) => invalid(fields),
        SaveError::UnknownSkill => {
            error(StatusCode::NOT_FOUND, "unknown_skill", "no skill with that id", Value::Null)
        }
        SaveError::NotStored(reason) => {
            tracing::error!(%reason, "skill settings not saved: the store refused the write");
            error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "not_saved",
                "the settings could not be written; nothing changed",
                Value::Null,
            )
        }
    }
}

fn invalid(fields: Vec<FieldError>) -> Response {
    error(
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_skills",
        "the skills did not pass validation",
        json!({ "fields": fields }),
    )
}

fn saved(result: Result<std::sync::Arc<Snapshot>, SaveError>) -> Response {
    match result {
        Ok(snap) => Json(json!({"revision": snap.revision, "etag": snap.card.etag})).into_response(),
        Err(e) => refused(e),
    }
}

/// Runs a save on a blocking thread: it waits for the store's durable write.
async fn blocking<F>(work: F) -> Response
where
    F: FnOnce() -> Result<std::sync::Arc<Snapshot>, SaveError> + Send + 'static,
{
    match tokio::task::spawn_blocking(work).await {
        Ok(result) => saved(result),
        Err(_) => refused(SaveError::NotStored("the save's worker thread stopped".into())),
    }
}

async fn read(State(s): State<Settings>) -> Response {
    let snap = s.current();
    Json(json!({
        "revision": snap.revision,
        "etag": snap.card.etag,
        "matchesDefault": snap.matches_default,
        "skills": snap.set.skills,
        "card": snap.card.card,
    }))
    .into_response()
}

async fn preview(
    State(s): State<Settings>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body: SaveBody = match decode(&headers, body) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    match s.preview(body.base_revision, &SkillSet { skills: body.skills }) {
        Ok(card) => Json(json!({ "card": card })).into_response(),
        Err(e) => refused(e),
    }
}

async fn save(
    State(s): State<Settings>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body: SaveBody = match decode(&headers, body) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    blocking(move || s.save(body.base_revision, SkillSet { skills: body.skills })).await
}

async fn save_skill(
    State(s): State<Settings>,
    id: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let Ok(Path(id)) = id else {
        return error(StatusCode::BAD_REQUEST, "bad_request", "the skill id is not valid text", Value::Null);
    };
    let patch: SkillPatch = match decode(&headers, body) {
        Ok(b) => b,
        Err(r) => return *r,
    };
    if patch.is_empty() {
        return error(
            StatusCode::BAD_REQUEST,
            "bad_request",
            "the change names no field: send baseRevision and at least one field to change",
            Value::Null,
        );
    }
    blocking(move || s.save_skill(&id, &patch)).await
}

/// The settings routes.
pub fn router(settings: Settings) -> Router {
    Router::new()
        .route("/api/settings", get(read).put(save))
        .route("/api/settings/preview", post(preview))
        .route("/api/settings/skills/{id}", patch(save_skill))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(settings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::skill;
    use crate::{Rules, SkillSet};
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    fn app() -> (Router, Settings) {
        let set = SkillSet { skills: vec![skill("a", "alpha")] };
        let s = Settings::new(
            a2a::basic_card("A", "d", "http://127.0.0.1:1"),
            set.clone(),
            set,
            Rules { require_content: true },
        )
        .unwrap();
        (router(s.clone()), s)
    }

    async fn call(app: &Router, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let resp = app.clone().oneshot(req).await.unwrap();
        let status = resp.status();
        let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    #[tokio::test]
    async fn read_preview_save_and_conflicts() {
        let (app, s) = app();
        let (st, v) = call(&app, "GET", "/api/settings", Value::Null).await;
        assert_eq!(st, StatusCode::OK);
        assert_eq!(v["revision"], 1);
        assert_eq!(v["skills"][0]["answerContent"], "alpha");

        let mut skills = v["skills"].clone();
        skills[0]["name"] = json!("Renamed");
        let (st, v) =
            call(&app, "POST", "/api/settings/preview", json!({"baseRevision": 1, "skills": skills})).await;
        assert_eq!((st, v["card"]["skills"][0]["name"].clone()), (StatusCode::OK, json!("Renamed")));
        assert_eq!(s.current().revision, 1, "preview saves nothing");

        let (st, v) = call(&app, "PUT", "/api/settings", json!({"baseRevision": 1, "skills": skills})).await;
        assert_eq!((st, v["revision"].clone()), (StatusCode::OK, json!(2)));
        let (st, v) = call(&app, "PUT", "/api/settings", json!({"baseRevision": 1, "skills": skills})).await;
        assert_eq!(st, StatusCode::CONFLICT);
        assert_eq!(
            (v["error"]["code"].clone(), v["error"]["currentRevision"].clone()),
            (json!("stale_revision"), json!(2))
        );

        // an enabled library-style skill without content cannot be saved
        skills[0]["answerContent"] = json!("");
        let (st, v) = call(&app, "PUT", "/api/settings", json!({"baseRevision": 2, "skills": skills})).await;
        assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(v["error"]["fields"][0]["field"], "skills[0].answerContent");

        let (st, v) = call(&app, "PUT", "/api/settings", json!({"baseRevision": "x"})).await;
        assert_eq!((st, v["error"]["code"].clone()), (StatusCode::BAD_REQUEST, json!("bad_request")));
        let (st, _) =
            call(&app, "PUT", "/api/settings", json!({"baseRevision": 2, "skills": [], "url": "http://x"}))
                .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "unknown fields are refused");
        assert_eq!(s.current().revision, 2);
    }

    /// Error messages name fields as the body spelled them and say what kind of value was
    /// wrong, never the value; a body that is not JSON is refused by its content type.
    #[tokio::test]
    async fn bad_bodies_are_explained_in_the_bodys_own_words() {
        let (app, s) = app();
        let cases = [
            (json!({"enabled": true}), "missing field `baseRevision`"),
            (
                json!({"baseRevision": "private words", "enabled": true}),
                "field baseRevision: expected a whole number of 0 or more, got a string",
            ),
            (
                json!({"baseRevision": 1, "allowed_scope": []}),
                "unknown field `allowed_scope`: it is spelled `allowedScope`",
            ),
            (json!({"baseRevision": 1, "tags": "calculus"}), "field tags: expected a list, got a string"),
            (json!([]), "expected a JSON object"),
        ];
        for (body, want) in cases {
            let (st, v) = call(&app, "PATCH", "/api/settings/skills/a", body.clone()).await;
            assert_eq!(
                (st, v["error"]["code"].clone()),
                (StatusCode::BAD_REQUEST, json!("bad_request")),
                "{body}"
            );
            let message = v["error"]["message"].as_str().unwrap();
            assert!(message.contains(want), "{body}: {message}");
            assert!(!message.contains("private words"), "{message}");
        }
        let req = Request::builder()
            .method("PUT")
            .uri("/api/settings")
            .header("content-type", "text/plain")
            .body(Body::from(json!({"baseRevision": 1, "skills": []}).to_string()))
            .unwrap();
        let resp = app.clone().oneshot(req).await.unwrap();
        assert_eq!(resp.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let req = Request::builder()
            .method("PUT")
            .uri("/api/settings")
            .header("content-type", "application/json")
            .body(Body::from("{\"baseRevision\": 1,\n \"skills\": [x]}"))
            .unwrap();
        let resp = app.clone().oneshot(req).await.unwrap();
        assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
        let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20).await.unwrap();
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(v["error"]["message"], "not valid JSON at line 2 column 13: expected value");
        assert_eq!(s.current().revision, 1, "nothing changed");
    }

    #[tokio::test]
    async fn patch_changes_one_skill() {
        let (app, s) = app();
        let (st, v) =
            call(&app, "PATCH", "/api/settings/skills/a", json!({"baseRevision": 1, "tags": ["x", "y"]}))
                .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!(v["revision"], 2);
        assert_eq!(v["etag"], json!(s.card_cell().get().etag), "the served card is the saved one");
        let snap = s.current();
        assert_eq!(snap.set.skills[0].tags, ["x", "y"]);
        assert_eq!(snap.set.skills[0].name, "Skill a", "fields not named stay");
        assert_eq!(snap.card.card.skills[0].tags, ["x", "y"]);

        let (st, v) =
            call(&app, "PATCH", "/api/settings/skills/a", json!({"baseRevision": 2, "enabled": false})).await;
        assert_eq!((st, v["revision"].clone()), (StatusCode::OK, json!(3)));
        assert!(s.current().card.card.skills.is_empty(), "a disabled skill leaves the card");
        assert!(s.policy().is_empty());
    }

    #[tokio::test]
    async fn patch_refusals_change_nothing() {
        let (app, s) = app();
        let before = s.current();
        let cases = [
            ("/api/settings/skills/nope", json!({"baseRevision": 1, "enabled": false}), 404, "unknown_skill"),
            ("/api/settings/skills/a", json!({"baseRevision": 7, "enabled": false}), 409, "stale_revision"),
            ("/api/settings/skills/a", json!({"baseRevision": 1, "colour": "red"}), 400, "bad_request"),
            ("/api/settings/skills/a", json!({"baseRevision": 1, "id": "b"}), 400, "bad_request"),
            ("/api/settings/skills/a", json!({"enabled": false}), 400, "bad_request"),
            ("/api/settings/skills/a", json!({"baseRevision": 1, "enabled": "no"}), 400, "bad_request"),
            ("/api/settings/skills/a", json!({"baseRevision": 1}), 400, "bad_request"),
            ("/api/settings/skills/a", json!([1]), 400, "bad_request"),
            // validation as for a whole save: no tags; an enabled library skill needs content
            ("/api/settings/skills/a", json!({"baseRevision": 1, "tags": []}), 422, "invalid_skills"),
            (
                "/api/settings/skills/a",
                json!({"baseRevision": 1, "answerContent": " "}),
                422,
                "invalid_skills",
            ),
        ];
        for (uri, body, status, code) in cases {
            let (st, v) = call(&app, "PATCH", uri, body.clone()).await;
            assert_eq!((st.as_u16(), v["error"]["code"].as_str()), (status, Some(code)), "{body}: {v}");
        }
        let (_, v) =
            call(&app, "PATCH", "/api/settings/skills/a", json!({"baseRevision": 1, "tags": []})).await;
        assert_eq!(v["error"]["fields"][0]["field"], "skills[0].tags");
        let (_, v) =
            call(&app, "PATCH", "/api/settings/skills/a", json!({"baseRevision": 9, "name": "N"})).await;
        assert_eq!(v["error"]["currentRevision"], 1);
        let big = json!({"baseRevision": 1, "answerContent": "x".repeat(BODY_LIMIT)});
        let (st, v) = call(&app, "PATCH", "/api/settings/skills/a", big).await;
        assert_eq!(
            (st, v["error"]["code"].clone()),
            (StatusCode::PAYLOAD_TOO_LARGE, json!("body_too_large"))
        );
        let after = s.current();
        assert_eq!((after.revision, &after.set), (before.revision, &before.set));
        assert_eq!(s.card_cell().get().etag, before.card.etag);
    }

    #[tokio::test]
    async fn preview_takes_the_body_of_a_save() {
        let (app, s) = app();
        let skills =
            json!([{"id": "a", "name": "Shown", "description": "d", "tags": ["t"], "answerContent": "c"}]);
        let body = json!({"baseRevision": 1, "skills": skills});
        let (st, v) = call(&app, "POST", "/api/settings/preview", body.clone()).await;
        assert_eq!((st, v["card"]["skills"][0]["name"].clone()), (StatusCode::OK, json!("Shown")));
        assert_eq!(s.current().revision, 1);
        // the very body a preview accepted saves
        let (st, v) = call(&app, "PUT", "/api/settings", body.clone()).await;
        assert_eq!((st, v["revision"].clone()), (StatusCode::OK, json!(2)));
        // and both refuse the same way
        for (method, uri) in [("POST", "/api/settings/preview"), ("PUT", "/api/settings")] {
            let (st, v) = call(&app, method, uri, body.clone()).await;
            assert_eq!((st, v["error"]["code"].clone()), (StatusCode::CONFLICT, json!("stale_revision")));
            let (st, _) = call(&app, method, uri, json!({"skills": skills})).await;
            assert_eq!(st, StatusCode::BAD_REQUEST, "{method} without baseRevision");
            let (st, _) = call(&app, method, uri, json!({"baseRevision": 2, "skills": skills, "x": 1})).await;
            assert_eq!(st, StatusCode::BAD_REQUEST, "{method} with an unknown field");
        }
    }

    struct FailingStore;
    impl crate::Persist for FailingStore {
        fn persist(&self, _: u64, _: &SkillSet) -> Result<(), String> {
            Err("disk full".into())
        }
    }

    #[tokio::test]
    async fn a_failed_write_is_not_acknowledged_and_changes_nothing() {
        let set = SkillSet { skills: vec![skill("a", "alpha")] };
        let identity = a2a::basic_card("A", "d", "http://127.0.0.1:1");
        let s = Settings::resume(
            identity,
            set.clone(),
            4,
            set,
            Rules::default(),
            Some(Box::new(FailingStore)),
            None,
        )
        .unwrap();
        let app = router(s.clone());
        let before = s.card_cell().get().etag.clone();
        let (st, v) =
            call(&app, "PATCH", "/api/settings/skills/a", json!({"baseRevision": 4, "enabled": false})).await;
        assert_eq!((st, v["error"]["code"].clone()), (StatusCode::INTERNAL_SERVER_ERROR, json!("not_saved")));
        assert!(!v.to_string().contains("disk full"), "the reason stays in the log");
        assert_eq!(s.current().revision, 4);
        assert!(s.current().set.skills[0].enabled);
        assert_eq!(s.card_cell().get().etag, before);
        assert_eq!(*s.subscribe().borrow(), 4, "no revision was announced");
    }
}
