// Conversation: the chat log (role=log), the composer, "Waiting for an answer…" after
// one second, and the hop-by-hop strip of the current question. Draws from state only.
import { h, replace, duration, agentName } from "../dom.js";
import { runRecord, runStatus, hopReason, errorLabel } from "../store.js";
import { formNode } from "./form.js";
import { AGENTS, STEP, STEP_IDS, CHANNELS, RUN_ERRORS, WORKFLOW_AGENT } from "../vocab.js";
import { STEP_LABELS, PRESS_STEP_LABELS, STRIP_TITLES, HUB_OUTCOMES } from "../store/words.js";

const WAIT_AFTER_MS = 1000;
const FOLLOW_SLACK_PX = 40;
const STEPS = STEP_IDS.map((id) => [id, STEP_LABELS[id] || id]);
const HOP_STATES = {
  pending: ["○", "not yet"],
  active: ["…", "in progress"],
  done: ["✓", "done"],
  skipped: ["–", "skipped"],
  failed: ["✕", "failed"],
  unknown: ["?", "unknown"],
};

export function mount(section, ctx) {
  const log = h("div", { class: "chat", role: "log", "aria-label": "Messages", tabindex: "0", id: "chat-log" });
  const empty = h("p", { class: "chat-empty" }, "Ask the university anything: a calculus question, library hours…");
  const waiting = h("p", { class: "waiting", role: "status", id: "waiting" });
  const strip = h("ol", { class: "hops", "aria-label": "Progress", id: "hops" });
  const stripNote = h("p", { class: "hops-note" });
  const stripTitle = h("h2", { id: "hops-title" }, STRIP_TITLES.question);
  const input = h("textarea", {
    id: "question",
    name: "question",
    rows: "2",
    maxlength: "2000",
    autocomplete: "off",
    "aria-describedby": "question-hint",
  });
  const send = h("button", { type: "submit", class: "primary" }, "Send");
  const fresh = h("button", { type: "button", id: "new-conversation" }, "New conversation");
  const form = h(
    "form",
    { class: "composer", id: "composer" },
    h("label", { for: "question" }, "Your question"),
    h("div", { class: "composer-row" }, input, send),
    h("p", { class: "hint", id: "question-hint" }, "Enter sends, Shift+Enter starts a new line."),
  );
  // in live mode: what leaves the machine (as the agents report their modes; never a key)
  const liveNotice = h("p", { class: "live-notice", id: "live-notice", hidden: "" });
  section.append(
    h("div", { class: "view-head" }, h("h1", { tabindex: "-1" }, "Conversation"), fresh),
    h("div", { class: "chat-wrap" }, log, empty),
    waiting,
    h("section", { class: "hop-panel", "aria-labelledby": "hops-title" }, stripTitle, strip, stripNote),
    liveNotice,
    form,
  );

  let follow = true;
  log.addEventListener("scroll", () => {
    follow = log.scrollTop + log.clientHeight >= log.scrollHeight - FOLLOW_SLACK_PX;
  });

  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
  let posting = false;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text || posting) return;
    follow = true;
    posting = true;
    // the text stays in the box until the server took the question (202/200): a refused
    // or failed post leaves it there to send again
    const taken = await ctx.ask(text).finally(() => {
      posting = false;
    });
    if (taken && input.value.trim() === text) input.value = "";
  });
  fresh.addEventListener("click", () => {
    follow = true;
    ctx.newConversation();
    input.focus();
  });

  const nodes = new Map(); // chat item id → element
  let shown = []; // ids in the log, in order
  let waitTimer = null;

  function messageNode(item) {
    let el = nodes.get(item.id);
    if (!el) {
      el = h("div", { class: "msg" }, h("p", { class: "who" }), h("p", { class: "text" }));
      nodes.set(item.id, el);
    }
    return el;
  }

  function label(state, item) {
    if (item.kind === "error") return errorLabel(item.code);
    if (item.id.endsWith(":f") || state.runs[item.runId]?.result?.outcome === "filled")
      return item.role === "user" ? { who: "You", tone: "user" } : { who: "Student (this page)", tag: "Form filled from your message", tone: AGENTS.student };
    if (item.kind === "notice") {
      // the words a form's answer carried (its receipt): said by the agent of that form
      const formRef = state.runs[item.runId]?.result?.formRef;
      const agent = formRef ? WORKFLOW_AGENT[state.forms[`form-${formRef}`]?.workflow] : null;
      if (!agent) return { who: "Notice", tone: "notice" };
      const hubName = state.hubName || state.monitor?.hub?.name || null;
      return { who: hubName ? `${hubName} · ${agentName(agent)}` : `${agentName(agent)} (via the Hub)`, tone: agent };
    }
    if (item.role === "user") return { who: "You", tone: "user" };
    const result = state.runs[item.runId]?.result;
    const by = result?.servedBy;
    const hubName = state.hubName || state.monitor?.hub?.name || null;
    if (!result) return { who: "Reply", tone: "pending" };
    if (!by || by.id === AGENTS.hub) {
      const tag = HUB_OUTCOMES[result.outcome];
      return { who: by?.name || hubName || "University Hub", tag, tone: AGENTS.hub };
    }
    const name = by.name || agentName(by.id);
    return { who: hubName ? `${hubName} · ${name}` : `${name} (via the Hub)`, tone: by.id || "specialist" };
  }

  function drawMessage(state, item) {
    const el = messageNode(item);
    const { who, tag, tone } = label(state, item);
    el.className = `msg tone-${tone} kind-${item.kind} role-${item.role}`;
    const [whoEl, textEl] = el.children;
    const whoText = tag ? `${who} · ${tag}` : who;
    if (whoEl.textContent !== whoText) whoEl.textContent = whoText;
    const text = item.kind === "error" && errorLabel(item.code).showCode ? `${item.text} (${item.code})` : item.text;
    if (textEl.textContent !== text) textEl.textContent = text;
    if (item.busy) el.setAttribute("aria-busy", "true");
    else el.removeAttribute("aria-busy");
    if (item.role === "user" && item.runId) el.dataset.runStatus = runStatus(state, item.runId);
    if (item.runId) el.dataset.runId = item.runId;
    drawCheck(state, item, el);
    return el;
  }

  // An error whose outcome is unknown (no answer in time) offers "Check for answer": it
  // asks again with the same request id, so the Hub returns the stored or in-flight answer.
  function drawCheck(state, item, el) {
    const offer = item.kind === "error" && item.runId && runStatus(state, item.runId) === "unknown";
    let button = el.querySelector("button.check-answer");
    if (offer && !button) {
      button = h("button", { type: "button", class: "check-answer" }, "Check for answer");
      button.addEventListener("click", () => {
        button.disabled = true;
        ctx.checkAnswer(item.runId).then((ok) => {
          if (!ok) button.disabled = false;
        });
      });
      el.append(button);
    }
    if (!offer && button) button.remove();
  }

  function currentRun(state) {
    for (let i = state.runOrder.length - 1; i >= 0; i--) {
      const run = state.runs[state.runOrder[i]];
      if (run.channel !== CHANNELS.student || run.threadId !== state.currentThread) continue;
      const rec = runRecord(state, run.runId);
      // the latest question of this conversation, even one that never left the page: its
      // strip shows its own failure, never an earlier question's steps — except one refused
      // because another is under way (run_in_progress): the strip stays on that one
      if (rec || (run.local && run.error?.code !== RUN_ERRORS.runInProgress)) return run;
    }
    return null;
  }

  function drawHops(state, run) {
    const rec = run ? runRecord(state, run.runId) : null;
    // a question the page's server never took: its first step failed, nothing after it ran;
    // one whose post broke off may have reached it: unknown, and so is everything after
    const neverLeft = run && !rec && run.error;
    const lost = neverLeft && run.error.code === "ui_server_unreachable";
    const hops = neverLeft
      ? STEPS.map(([step], i) =>
          i === 0 ? { step, state: lost ? "unknown" : "failed", reason: run.error.message } : { step, state: lost ? "unknown" : "skipped" },
        )
      : Array.isArray(rec?.hops)
        ? rec.hops
        : [];
    const byStep = new Map(hops.map((hop) => [hop.step, hop]));
    const specialist = byStep.get(STEP.hubForwarded)?.to;
    // a press on a form is a run of its own: the same nine steps, the Hub's check of the
    // form where a question has its decision
    const press = rec?.kind === "press";
    const heading = press ? STRIP_TITLES.press : STRIP_TITLES.question;
    if (stripTitle.textContent !== heading) stripTitle.textContent = heading;
    // the step in progress: the server's "active" one, else (while the run is under way)
    // the first step after the last one done
    let waitingOn = null;
    if (run && !run.finished && !hops.some((x) => x.state === "active")) {
      const lastDone = STEPS.findLastIndex(([step]) => byStep.get(step)?.state === "done" || byStep.get(step)?.state === "skipped");
      waitingOn = STEPS[lastDone + 1]?.[0] ?? null;
    }
    const items = STEPS.map(([step, name]) => {
      let hop = byStep.get(step) || { step, state: "pending" };
      if (step === waitingOn && hop.state === "pending") hop = { ...hop, state: "active" };
      const st = HOP_STATES[hop.state] ? hop.state : "unknown";
      const [icon, word] = HOP_STATES[st];
      let title = (press && PRESS_STEP_LABELS[step]) || name;
      if (specialist && step.startsWith("specialist_")) title = name.replace("Specialist", agentName(specialist));
      if (step === STEP.hubForwarded && specialist) title = `Hub forwarded to ${agentName(specialist)}`;
      let detail = word;
      if (st === "done" && typeof hop.ms === "number") detail = `done · ${duration(hop.ms)}`;
      const why = hopReason(step, st, hop.reason, specialist ? agentName(specialist) : null, press ? "press" : "question");
      if ((st === "skipped" || st === "failed") && why) detail = `${word}: ${why}`;
      if (st === "unknown" && why) detail = why;
      const actor = step.startsWith("specialist_") ? specialist : (hop.from || step.split("_")[0]);
      return h(
        "li",
        { class: `hop hop-${st} tone-${actor || "none"}`, "aria-current": st === "active" ? "step" : null, "data-step": step, "data-state": st },
        h("span", { class: "hop-icon", "aria-hidden": "true" }, icon),
        h("span", { class: "hop-name" }, title),
        h("span", { class: "hop-state" }, detail),
      );
    });
    replace(strip, items);
    milestone(run, byStep, specialist, press);
    strip.dataset.runId = run?.runId ?? "";
    stripNote.textContent = run ? "" : "Ask a question to see how it travels.";
  }

  let announced = ""; // the last milestone said in the status region (run + step)
  let said = ""; // its text, taken back once the run ended
  function milestone(run, byStep, specialist, press) {
    if (!run || run.finished) {
      // a milestone of a run that ended no longer describes anything
      if (said) ctx.clearStatus(said);
      said = "";
      return; // a replayed, finished run says nothing
    }
    const fwd = byStep.get(STEP.hubForwarded);
    let text = "";
    if (fwd?.state === "done" && specialist) text = press ? `Hub passed your press to the ${agentName(specialist)}.` : `Hub asked the ${agentName(specialist)}.`;
    else if (fwd?.state === "skipped") text = "The Hub is answering itself.";
    const key = `${run.runId}:${text}`;
    if (text && key !== announced) {
      announced = key;
      said = text;
      ctx.setStatus(text);
    }
  }

  function drawWaiting(state, run) {
    clearTimeout(waitTimer);
    const status = run ? runStatus(state, run.runId) : null;
    const answering = run && state.chat.some((m) => m.runId === run.runId && m.role === "assistant");
    const active = run && !run.finished && !answering && (status === "sending" || status === "waiting");
    let text = "";
    if (active) {
      const left = (run.startedAt ?? 0) + WAIT_AFTER_MS - Date.now();
      if (left > 0) waitTimer = setTimeout(ctx.requestDraw, left + 10);
      else text = "Waiting for an answer…";
    }
    if (waiting.textContent !== text) waiting.textContent = text;
    waiting.classList.toggle("on", text !== "");
  }

  function drawLiveNotice(state) {
    const agents = Object.entries(state.monitor?.agents || {}).filter(([, a]) => a?.mode === "live");
    const names = agents.map(([id, a]) => `${agentName(id)} (${a.model || "model unknown"})`);
    // the UI server says when its model server is on this machine (`demo --fake-model`):
    // then nothing goes to a provider, and the answers are a fake model's
    const local = state.monitor?.agents?.[AGENTS.student]?.modelServer === "this_machine";
    const text = !names.length
      ? ""
      : local
        ? `Live mode against a local fake model server: answers come from a fake model on this machine, not a real one, and nothing leaves this machine. Models: ${names.join(", ")}.`
        : `Live mode: your question and the recent conversation history are sent to the model provider by ${names.join(", ")}. No API key is ever sent to this page.`;
    if (liveNotice.textContent !== text) liveNotice.textContent = text;
    liveNotice.hidden = !text;
  }

  const forms = new Map(); // form id → formNode
  function drawForm(state, item) {
    let node = forms.get(item.id);
    if (!node) {
      node = formNode(item.id, ctx);
      forms.set(item.id, node);
    }
    const form = state.forms[item.id];
    if (form) node.draw(form);
    return node.el;
  }

  return {
    draw(state) {
      // this conversation's lines and the server's own notices; a receipt (a notice a form's
      // answer carried) belongs to its conversation and never shows in another one
      const items = state.chat.filter((m) => m.threadId === state.currentThread || (m.kind === "notice" && m.threadId === CHANNELS.noticesThread));
      const ids = items.map((m) => m.id);
      const els = items.map((m) => (m.kind === "form" ? drawForm(state, m) : drawMessage(state, m)));
      for (const [id, node] of forms) {
        if (!ids.includes(id)) {
          node.dispose();
          forms.delete(id);
        }
      }
      const prefix = shown.length <= ids.length && shown.every((id, i) => ids[i] === id);
      if (prefix) for (const el of els.slice(shown.length)) log.append(el);
      else replace(log, els);
      for (const id of nodes.keys()) if (!ids.includes(id)) nodes.delete(id);
      shown = ids;
      empty.hidden = items.length > 0;
      const run = currentRun(state);
      drawHops(state, run);
      drawWaiting(state, run);
      drawLiveNotice(state);
      if (follow) log.scrollTop = log.scrollHeight;
    },
  };
}
