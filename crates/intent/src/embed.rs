//! Sentence embeddings (feature `embed`): all-MiniLM-L6-v2, a 6-layer BERT with 384
//! dimensions, run on the CPU with candle; each text is tokenized by the model's own
//! `tokenizer.json` (WordPiece, lowercased, accents stripped), encoded, mean-pooled over
//! its tokens and L2-normalized, as sentence-transformers does for this model.
//!
//! The forward pass is written here over candle-nn's layers rather than taken from
//! candle-transformers: that crate compiles a hundred other models for the one used.
//! The weights are not in the repository: `scripts/fetch-minilm.sh` fetches them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use candle_core::{D, DType, Device, Module, Tensor};
use candle_nn::{Embedding, LayerNorm, Linear, VarBuilder, embedding, layer_norm, linear};
use tokenizers::{PaddingParams, Tokenizer, TruncationParams};

/// Where `scripts/fetch-minilm.sh` leaves the model, relative to the repository.
pub const DEFAULT_DIR: &str = "models/all-MiniLM-L6-v2";
/// The embedding's dimension.
pub const DIMENSION: usize = 384;

const LAYERS: usize = 6;
const HEADS: usize = 12;
const INTERMEDIATE: usize = 1536;
const VOCABULARY: usize = 30522;
const POSITIONS: usize = 512;
const EPS: f64 = 1e-12;
/// Tokens read per text (the packaged tokenizer's own limit); questions are far shorter.
const MAX_TOKENS: usize = 128;
/// Texts encoded together (padded to the longest of them).
const BATCH: usize = 32;
/// Training texts whose embeddings are kept, so a retraining after a card change only
/// encodes what is new; past this the cache starts again.
const CACHE_CAPACITY: usize = 8192;

#[derive(Debug)]
pub enum EmbedError {
    /// The model's files are not there: the message names the fetch script.
    Missing {
        dir: PathBuf,
        file: &'static str,
    },
    Load(String),
    Run(String),
}

impl std::fmt::Display for EmbedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EmbedError::Missing { dir, file } => write!(
                f,
                "the embedding model is missing ({} has no {file}): run scripts/fetch-minilm.sh",
                dir.display()
            ),
            EmbedError::Load(e) => write!(f, "the embedding model does not load: {e}"),
            EmbedError::Run(e) => write!(f, "the embedding model failed: {e}"),
        }
    }
}

impl std::error::Error for EmbedError {}

fn run_error(e: impl std::fmt::Display) -> EmbedError {
    EmbedError::Run(e.to_string())
}

struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    output_norm: LayerNorm,
}

impl Layer {
    fn load(vb: VarBuilder) -> candle_core::Result<Self> {
        let a = vb.pp("attention");
        Ok(Self {
            query: linear(DIMENSION, DIMENSION, a.pp("self.query"))?,
            key: linear(DIMENSION, DIMENSION, a.pp("self.key"))?,
            value: linear(DIMENSION, DIMENSION, a.pp("self.value"))?,
            attention_out: linear(DIMENSION, DIMENSION, a.pp("output.dense"))?,
            attention_norm: layer_norm(DIMENSION, EPS, a.pp("output.LayerNorm"))?,
            intermediate: linear(DIMENSION, INTERMEDIATE, vb.pp("intermediate.dense"))?,
            output: linear(INTERMEDIATE, DIMENSION, vb.pp("output.dense"))?,
            output_norm: layer_norm(DIMENSION, EPS, vb.pp("output.LayerNorm"))?,
        })
    }

    /// `h`: batch × tokens × DIMENSION; `mask`: batch × 1 × 1 × tokens, 0 for a token
    /// and a large negative number for padding.
    fn forward(&self, h: &Tensor, mask: &Tensor) -> candle_core::Result<Tensor> {
        let (batch, tokens, _) = h.dims3()?;
        let head = DIMENSION / HEADS;
        let heads = |l: &Linear| -> candle_core::Result<Tensor> {
            l.forward(h)?.reshape((batch, tokens, HEADS, head))?.transpose(1, 2)?.contiguous()
        };
        let (q, k, v) = (heads(&self.query)?, heads(&self.key)?, heads(&self.value)?);
        let scores = (q.matmul(&k.t()?)? / (head as f64).sqrt())?.broadcast_add(mask)?;
        let weights = candle_nn::ops::softmax_last_dim(&scores)?;
        let context = weights.matmul(&v)?.transpose(1, 2)?.reshape((batch, tokens, DIMENSION))?;
        let attended = self.attention_norm.forward(&(self.attention_out.forward(&context)? + h)?)?;
        let inner = self.intermediate.forward(&attended)?.gelu_erf()?;
        self.output_norm.forward(&(self.output.forward(&inner)? + attended)?)
    }
}

/// The loaded model: immutable after loading except for the training-text cache.
pub struct Encoder {
    tokenizer: Tokenizer,
    words: Embedding,
    positions: Embedding,
    types: Embedding,
    embedding_norm: LayerNorm,
    layers: Vec<Layer>,
    cache: Mutex<HashMap<String, Vec<f32>>>,
}

impl std::fmt::Debug for Encoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Encoder(all-MiniLM-L6-v2)")
    }
}

impl Encoder {
    /// Loads the model from `dir` (as `scripts/fetch-minilm.sh` lays it out).
    pub fn load(dir: &Path) -> Result<Encoder, EmbedError> {
        for file in ["tokenizer.json", "model.safetensors"] {
            if !dir.join(file).is_file() {
                return Err(EmbedError::Missing { dir: dir.to_path_buf(), file });
            }
        }
        let load = |e: &dyn std::fmt::Display| EmbedError::Load(e.to_string());
        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json")).map_err(|e| load(&e))?;
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..Default::default() }))
            .map_err(|e| load(&e))?;
        // the packaged tokenizer pads to a fixed 128; a batch needs only its longest text
        tokenizer.with_padding(Some(PaddingParams::default()));
        let weights = std::fs::read(dir.join("model.safetensors")).map_err(|e| load(&e))?;
        let vb =
            VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu).map_err(|e| load(&e))?;
        let e = vb.pp("embeddings");
        let built = (|| -> candle_core::Result<Encoder> {
            Ok(Encoder {
                tokenizer,
                words: embedding(VOCABULARY, DIMENSION, e.pp("word_embeddings"))?,
                positions: embedding(POSITIONS, DIMENSION, e.pp("position_embeddings"))?,
                types: embedding(2, DIMENSION, e.pp("token_type_embeddings"))?,
                embedding_norm: layer_norm(DIMENSION, EPS, e.pp("LayerNorm"))?,
                layers: (0..LAYERS)
                    .map(|i| Layer::load(vb.pp(format!("encoder.layer.{i}"))))
                    .collect::<candle_core::Result<_>>()?,
                cache: Mutex::new(HashMap::new()),
            })
        })();
        built.map_err(|e| load(&e))
    }

    /// The token ids the model reads for `text` (with `[CLS]` and `[SEP]`).
    pub fn token_ids(&self, text: &str) -> Result<Vec<u32>, EmbedError> {
        let encoding = self.tokenizer.encode(text, true).map_err(run_error)?;
        Ok(encoding.get_ids().to_vec())
    }

    /// One normalized embedding per text, in order.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        // similar lengths together: less padding
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len());
        let mut out = vec![Vec::new(); texts.len()];
        for chunk in order.chunks(BATCH) {
            let batch: Vec<&str> = chunk.iter().map(|&i| texts[i]).collect();
            for (&i, v) in chunk.iter().zip(self.embed_batch(&batch)?) {
                out[i] = v;
            }
        }
        Ok(out)
    }

    /// As [`Encoder::embed`], keeping each text's embedding for the next call (for
    /// training texts, which mostly stay the same from one training to the next).
    pub fn embed_cached(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        let mut new: Vec<&str> = texts.iter().copied().filter(|t| !cache.contains_key(*t)).collect();
        new.sort_unstable();
        new.dedup();
        if cache.len() + new.len() > CACHE_CAPACITY {
            cache.clear();
            new = texts.to_vec();
            new.sort_unstable();
            new.dedup();
        }
        for (t, v) in new.iter().zip(self.embed(&new)?) {
            cache.insert((*t).to_string(), v);
        }
        Ok(texts.iter().map(|t| cache.get(*t).cloned().unwrap_or_default()).collect())
    }

    fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let encodings = self.tokenizer.encode_batch(texts.to_vec(), true).map_err(run_error)?;
        let tokens = encodings.iter().map(|e| e.get_ids().len()).max().unwrap_or(0);
        let ids: Vec<u32> = encodings.iter().flat_map(|e| e.get_ids().iter().copied()).collect();
        let mask: Vec<f32> =
            encodings.iter().flat_map(|e| e.get_attention_mask().iter().map(|&m| m as f32)).collect();
        self.forward(ids, mask, texts.len(), tokens).map_err(run_error)
    }

    fn forward(
        &self,
        ids: Vec<u32>,
        mask: Vec<f32>,
        batch: usize,
        tokens: usize,
    ) -> candle_core::Result<Vec<Vec<f32>>> {
        let dev = Device::Cpu;
        let ids = Tensor::from_vec(ids, (batch, tokens), &dev)?;
        let mask = Tensor::from_vec(mask, (batch, tokens), &dev)?;
        let positions = Tensor::arange(0u32, tokens as u32, &dev)?;
        let types = Tensor::zeros((batch, tokens), DType::U32, &dev)?;
        let h = self
            .words
            .forward(&ids)?
            .broadcast_add(&self.positions.forward(&positions)?)?
            .add(&self.types.forward(&types)?)?;
        let mut h = self.embedding_norm.forward(&h)?;
        // padding gets no attention: 0 where a token is, −10,000 where padding is
        let bias = ((mask.ones_like()? - &mask)? * -10_000.0)?.reshape((batch, 1, 1, tokens))?;
        for layer in &self.layers {
            h = layer.forward(&h, &bias)?;
        }
        // mean over the text's own tokens, then unit length
        let m = mask.unsqueeze(2)?;
        let summed = h.broadcast_mul(&m)?.sum(1)?;
        let mean = summed.broadcast_div(&m.sum(1)?.clamp(1e-9, f64::MAX)?)?;
        let norm = mean.sqr()?.sum_keepdim(D::Minus1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
        mean.broadcast_div(&norm)?.to_vec2::<f32>()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The fetched model, or `None` (with a line saying so) when it is not there.
    pub(crate) fn encoder() -> Option<std::sync::Arc<Encoder>> {
        static ENCODER: std::sync::OnceLock<Option<std::sync::Arc<Encoder>>> = std::sync::OnceLock::new();
        ENCODER
            .get_or_init(|| {
                // where the Hub looks: EMBED_MODEL_DIR, else the fetch script's folder
                let dir = std::env::var_os("EMBED_MODEL_DIR")
                    .map(std::path::PathBuf::from)
                    .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(DEFAULT_DIR));
                match Encoder::load(&dir) {
                    Ok(e) => Some(std::sync::Arc::new(e)),
                    Err(e) => {
                        println!("skipped: {e}");
                        None
                    }
                }
            })
            .clone()
    }

    fn dot(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn a_missing_model_names_the_fetch_script() {
        let err = Encoder::load(Path::new("/nonexistent/minilm")).unwrap_err().to_string();
        assert!(err.contains("scripts/fetch-minilm.sh") && err.contains("tokenizer.json"), "{err}");
    }

    #[test]
    fn the_tokenizer_is_bert_uncased_wordpiece() {
        let Some(e) = encoder() else { return };
        // [CLS] hello world [SEP] in the bert-base-uncased vocabulary
        assert_eq!(e.token_ids("Hello World").unwrap(), [101, 7592, 2088, 102]);
        // accents stripped, unknown words split into pieces, never dropped
        let ids = e.token_ids("Café derivatve").unwrap();
        assert_eq!(ids.first(), Some(&101));
        assert!(ids.len() >= 5, "{ids:?}");
    }

    #[test]
    fn embeddings_are_unit_length_and_mean_what_they_say() {
        let Some(e) = encoder() else { return };
        let texts = [
            "How do I differentiate x squared?",
            "What is the derivative of x^2?",
            "When does the library close tonight?",
            "What are the library's opening hours?",
        ];
        let v = e.embed(&texts).unwrap();
        for x in &v {
            assert_eq!(x.len(), DIMENSION);
            assert!((dot(x, x) - 1.0).abs() < 1e-4);
        }
        assert!(dot(&v[0], &v[1]) > dot(&v[0], &v[2]) + 0.2, "{} {}", dot(&v[0], &v[1]), dot(&v[0], &v[2]));
        assert!(dot(&v[2], &v[3]) > dot(&v[1], &v[3]) + 0.2);
        // padding changes nothing: a text alone and in a batch with longer ones
        let alone = e.embed(&texts[..1]).unwrap();
        assert!(dot(&alone[0], &v[0]) > 0.9999, "{}", dot(&alone[0], &v[0]));
        // the cache gives the same vectors
        let cached = e.embed_cached(&texts).unwrap();
        assert!(cached.iter().zip(&v).all(|(a, b)| dot(a, b) > 0.9999));
    }
}
