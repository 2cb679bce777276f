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

#[tokio::test]
async fn the_chat_loop_prompts_keeps_its_conversation_and_ends_at_quit() {
    use student::chat::{ChatOptions, chat};
    let base = start().await;
    let me = student::Student::new(a2a::client::A2aClient::default(), base.clone());
    let input = "hi\nagain\n  \n/new\n/help\n/nope\nthird\n/quit\nnever asked\n";
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let opts = ChatOptions { prompt: true, verbose: true };
    chat(&me, input.as_bytes(), &mut out, &mut err, opts).await.unwrap();
    let (out, err) = (String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap());
    assert!(out.starts_with(&format!("asking {base}; /help lists commands")), "{out}");
    assert_eq!(out.matches("you> ").count(), 8, "a prompt before each line read: {out}");
    let said: Vec<&str> = out.lines().filter_map(|l| l.split("Shapes: ").nth(1)).collect();
    assert_eq!(said, ["you said hi", "you said again", "you said third"]);
    let sent: Vec<&str> = out.lines().filter(|l| l.contains("sent  messageId=")).collect();
    let replies: Vec<&str> = out.lines().filter(|l| l.contains("reply messageId=")).collect();
    let ctx = |l: &str| l.split("contextId=").nth(1).unwrap().to_string();
    assert_eq!(ctx(sent[0]), "(new)");
    assert_eq!(ctx(sent[1]), ctx(replies[0]), "the second question continues the first's conversation");
    assert_eq!(ctx(sent[2]), "(new)", "after /new");
    assert!(out.contains("new conversation") && out.contains("/quit (or Ctrl+D) ends"), "{out}");
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        ["not sent: the question is empty", "unknown command /nope; /help lists the commands"]
    );
}
