//! What answers the live router's calls in an evaluation: decisions replayed from a file,
//! the deterministic stand-in, or the Hub's configured model (recorded first with
//! `--record`, and only with `--paid` when that is the real provider).

use std::sync::Arc;

use anyhow::{Context, bail};
use hub::{Router, RouterMode, RouterParts, SpecialistView};

use crate::decisions;
use crate::eval::args::Args;
use crate::eval::set::Item;

pub(crate) fn with_model(router: Router, llm: Option<Arc<dyn llm::Llm>>) -> Router {
    match llm {
        Some(llm) => router.with_llm(llm),
        None => router,
    }
}

pub(crate) fn model_note(args: &Args, config: &hub::Config) -> String {
    match (&args.replay, &args.record, args.stand_in) {
        (Some(path), _, _) => format!("decisions replayed from {}", path.display()),
        (_, _, true) => "the deterministic stand-in (mock keyword heuristic), not a model".into(),
        _ => config.live.as_ref().map_or_else(String::new, |l| l.model.id().to_string()),
    }
}

/// What answers the live router's calls: a replay, the stand-in, or (`None`) the Hub's
/// configured client. With `--record`, that is first asked about every item and the
/// decisions are written to the file, then replayed from memory (one call per item).
pub(crate) async fn model_for(
    args: &Args,
    config: &hub::Config,
    view: &[SpecialistView],
    items: &[Item],
) -> anyhow::Result<Option<Arc<dyn llm::Llm>>> {
    if let Some(path) = &args.replay {
        return Ok(Some(Arc::new(decisions::Replay::read(path)?)));
    }
    if !args.stand_in
        && let Some(live) = &config.live
        && live.client.base_url == llm::DEFAULT_BASE_URL
        && !args.paid
    {
        bail!(
            "this asks {} ({}) up to {} times and costs money: add --paid, or use --replay, --stand-in or ANTHROPIC_BASE_URL (campus fake-anthropic)",
            live.model.id(),
            llm::DEFAULT_BASE_URL,
            items.len()
        );
    }
    let inner: Option<Arc<dyn llm::Llm>> = if args.stand_in { Some(Arc::new(hub::stand_in())) } else { None };
    let Some(path) = &args.record else { return Ok(inner) };
    let inner: Arc<dyn llm::Llm> = match inner {
        Some(i) => i,
        None => {
            let live = config.live.as_ref().context("the live router has no model settings")?;
            Arc::new(live.client().map_err(|e| anyhow::anyhow!("the model client: {e}"))?)
        }
    };
    let note = if args.stand_in {
        decisions::STAND_IN_NOTE.to_string()
    } else {
        format!(
            "decisions of {} through the Hub's live router; recorded with campus eval-router --record",
            inner.label()
        )
    };
    let recorder = Arc::new(decisions::Recorder::new(inner));
    let live = Router::new(RouterParts::of(RouterMode::Live, config)).with_llm(recorder.clone());
    for item in items {
        live.decide_live(&item.text, view, true).await;
    }
    let replay = recorder.write(path, &note)?;
    say!("recorded {} decisions in {}", items.len(), path.display());
    Ok(Some(Arc::new(replay)))
}
