//! The Student against agents that answer in the three shapes A2A allows: a message, a
//! task with a status message, and a completed task whose answer is only in artifacts.

use a2a::server::{A2aServer, AgentExecutor, CardCell, Reply, RequestContext};
use a2a::wire::{Artifact, Part, TaskState, new_artifact_id};
use a2a::{CardDoc, RpcError};

struct Shapes;

impl AgentExecutor for Shapes {
    async fn execute(&self, ctx: RequestContext) -> Result<Reply, RpcError> {
        Ok(match ctx.text().as_str() {
            "task" => Reply::task(TaskState::InputRequired, vec![Part::text("which course?")]),
            "artifact" => Reply::Task {
                message_id: a2a::wire::new_message_id(),
                state: TaskState::Completed,
                parts: vec![],
                artifacts: vec![Artifact {
                    artifact_id: new_artifact_id(),
                    name: None,
                    description: None,
                    parts: vec![Part::text("answer in an artifact")],
                    metadata: None,
                    extensions: None,
                }],
                metadata: None,
            },
            other => Reply::text(format!("you said {other}")),
        })
    }
}

async fn start() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let card = a2a::basic_card("Shapes", "", &base);
    let app = A2aServer::new(Shapes, CardCell::new(CardDoc::new(card))).router();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

#[tokio::test]
async fn every_reply_shape_reads_as_text() {
    let base = start().await;
    let client = a2a::client::A2aClient::default();

    let ex = student::ask(&client, &base, "hi", Some("ctx-7".into())).await.unwrap();
    assert_eq!(
        (ex.agent.as_str(), ex.reply_text.as_str(), ex.context_id.as_str()),
        ("Shapes", "you said hi", "ctx-7")
    );
    assert!(ex.task.is_none());

    let ex = student::ask(&client, &base, "task", None).await.unwrap();
    assert_eq!(ex.reply_text, "which course?");
    assert_eq!(ex.task.as_ref().map(|t| t.1.as_str()), Some("TASK_STATE_INPUT_REQUIRED"));
    assert!(!ex.reply_message_id.is_empty());

    let ex = student::ask(&client, &base, "artifact", None).await.unwrap();
    assert_eq!(ex.reply_text, "answer in an artifact");
    assert_eq!(ex.task.as_ref().map(|t| t.1.as_str()), Some("TASK_STATE_COMPLETED"));
}
