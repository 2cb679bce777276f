//! The local settings API, served by the agent itself (behind its local guard):
//!
//! - `GET /api/settings` → `{revision, etag, matchesDefault, skills, card}`
//! - `POST /api/settings/preview` `{skills}` → `{card}` or 422
//! - `PUT /api/settings` `{baseRevision, skills}` → `{revision, etag}`, 409 when stale, 422 when invalid
//!
//! Errors: `{"error": {"code", "message", …}}` with codes `bad_request`,
//! `invalid_skills` (with `fields`) and `stale_revision` (with `currentRevision`).

use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::model::{FieldError, SkillSet};
use crate::settings::{SaveError, Settings};

/// Largest settings body accepted.
const BODY_LIMIT: usize = 256 * 1024;

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

fn bad_request(rejection: JsonRejection) -> Response {
    // The rejection's text names the field and problem, not the submitted values.
    let detail: String = rejection.body_text().chars().take(300).collect();
    error(StatusCode::BAD_REQUEST, "bad_request", &detail.to_lowercase(), Value::Null)
}

fn invalid(fields: Vec<FieldError>) -> Response {
    error(
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_skills",
        "the skills did not pass validation",
        json!({ "fields": fields }),
    )
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

async fn preview(State(s): State<Settings>, body: Result<Json<SkillSet>, JsonRejection>) -> Response {
    let Json(set) = match body {
        Ok(b) => b,
        Err(r) => return bad_request(r),
    };
    match s.preview(&set) {
        Ok(card) => Json(json!({ "card": card })).into_response(),
        Err(fields) => invalid(fields),
    }
}

async fn save(State(s): State<Settings>, body: Result<Json<SaveBody>, JsonRejection>) -> Response {
    let Json(body) = match body {
        Ok(b) => b,
        Err(r) => return bad_request(r),
    };
    match s.save(body.base_revision, SkillSet { skills: body.skills }) {
        Ok(snap) => Json(json!({"revision": snap.revision, "etag": snap.card.etag})).into_response(),
        Err(SaveError::Stale { current_revision }) => error(
            StatusCode::CONFLICT,
            "stale_revision",
            "the settings changed since this editor loaded them; reload and apply your edit again",
            json!({ "currentRevision": current_revision }),
        ),
        Err(SaveError::Invalid(fields)) => invalid(fields),
    }
}

/// The settings routes.
pub fn router(settings: Settings) -> Router {
    Router::new()
        .route("/api/settings", get(read).put(save))
        .route("/api/settings/preview", post(preview))
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
        let (st, v) = call(&app, "POST", "/api/settings/preview", json!({"skills": skills})).await;
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
}
