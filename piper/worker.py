# SPDX-License-Identifier: GPL-3.0-or-later
"""raudio's Piper worker: one voice, loaded once, speaking one utterance per request.

raudio starts it as `python worker.py MODEL CONFIG` with the project's Piper virtual environment and
talks to it over its standard input and output:

- at start, one JSON line: {"ready": true, "sample_rate": 22050} once the voice is loaded, or
  {"error": "...", "file": "..."} (then the worker exits with status 65);
- each request is one JSON line {"text": "...", "speed": 1.0, "volume": 1.0}
  (speed divides the voice's length scale; volume multiplies the peak-normalized samples);
- each answer is one JSON line {"samples": N, "words": [[start, end, phonemes], ...]} followed by N
  little-endian float32 samples (mono, at the voice's rate), or {"samples": 0, "error": "..."} when
  this text cannot be spoken. "words" are the phoneme groups between the phonemizer's word separators,
  in order: their sample range and how many sounds they have; raudio maps them to the words of the text.

The model is patched once to output its phoneme durations (piper.patch_voice_with_alignment) and the
patched copy cached in $XDG_CACHE_HOME/raudio/piper, so later loads need neither onnx nor the patch.
Stderr is for people (raudio keeps its last lines for error messages).
"""

import hashlib
import json
import os
import sys
from pathlib import Path

# Sentences longer than this many phonemes are synthesized in pieces cut at word separators after
# punctuation (else anywhere between words): the model's memory grows with the length of what it
# speaks at once, and one long sentence of Moby-Dick would take the worker past 250 MB.
MAX_PHONEMES = int(os.environ.get("RAUDIO_PIPER_MAX_PHONEMES", "70"))
PUNCTUATION = set(",;:.!?—–-)")


def reply(header, payload=b""):
    out = sys.stdout.buffer
    out.write(json.dumps(header, ensure_ascii=False).encode("utf-8") + b"\n")
    if payload:
        out.write(payload)
    out.flush()


def fail_startup(message, file):
    reply({"error": message, "file": str(file)})
    sys.exit(65)


def cached_model_with_alignments(model_path):
    """The model with its duration output: the file itself when it has one, else a cached patched copy."""
    stat = model_path.stat()
    key = hashlib.sha1(f"{model_path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    cached = cache_home / "raudio" / "piper" / f"{model_path.stem}-{key}.onnx"
    if cached.exists():
        return cached
    import onnx  # only the first time a model is seen
    from piper.patch_voice_with_alignment import add_alignment_output

    model = onnx.load(str(model_path))
    try:
        add_alignment_output(model)
    except ValueError:
        return model_path  # already patched, or no duration tensor: spoken without word timing
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".partial")
    onnx.save(model, str(partial))
    os.replace(partial, cached)
    return cached


def load_voice(model_path, config_path):
    import onnxruntime
    from piper import PiperVoice
    from piper.config import PiperConfig

    try:
        with open(config_path, "r", encoding="utf-8") as file:
            config = PiperConfig.from_dict(json.load(file))
    except (OSError, ValueError, KeyError, TypeError) as error:
        fail_startup(f"not a Piper voice config ({error.__class__.__name__}: {error})", config_path)
    try:
        path = cached_model_with_alignments(model_path)
    except Exception as error:  # onnx's own errors for a truncated or foreign file
        fail_startup(f"not an ONNX voice model ({error.__class__.__name__}: {error})", model_path)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = int(os.environ.get("RAUDIO_PIPER_THREADS", "1"))
    options.inter_op_num_threads = 1
    options.enable_mem_pattern = False
    try:
        session = onnxruntime.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as error:
        fail_startup(f"not an ONNX voice model ({error.__class__.__name__}: {error})", model_path)
    return PiperVoice(session=session, config=config)


def pieces(phonemes):
    """`phonemes` cut into runs of at most MAX_PHONEMES, at word separators (after punctuation when possible)."""
    if len(phonemes) <= MAX_PHONEMES:
        return [phonemes]
    result = []
    start = 0
    while len(phonemes) - start > MAX_PHONEMES:
        limit = start + MAX_PHONEMES
        spaces = [i for i in range(start + 1, limit) if phonemes[i] == " "]
        if not spaces:
            cut = limit
        else:
            after_punctuation = [i for i in spaces if phonemes[i - 1] in PUNCTUATION]
            cut = (after_punctuation or spaces)[-1]
        result.append(phonemes[start:cut])
        start = cut + 1 if cut < len(phonemes) and phonemes[cut] == " " else cut
    if start < len(phonemes):
        result.append(phonemes[start:])
    return result


def speak_piece(voice, phonemes, syn_config, np):
    """Audio and per-phoneme sample counts of one run of phonemes (counts None without alignments)."""
    from piper.const import BOS, EOS, PAD

    ids = voice.phonemes_to_ids(phonemes)
    result = voice.phoneme_ids_to_audio(ids, syn_config, include_alignments=True)
    audio, id_samples = result if isinstance(result, tuple) else (result, None)
    audio = np.atleast_1d(audio).astype(np.float32)
    if id_samples is None or len(np.atleast_1d(id_samples)) != len(ids):
        return audio, None
    id_samples = np.atleast_1d(id_samples)
    id_map = voice.config.phoneme_id_map
    pad = id_map.get(PAD, [])
    counts = []
    index = 0
    for position, phoneme in enumerate([BOS] + list(phonemes) + [EOS]):
        width = len(id_map.get(phoneme, [])) + (len(pad) if phoneme != EOS else 0)
        if position > 0 and position <= len(phonemes) and phoneme not in id_map:
            width = 0  # dropped by phonemes_to_ids
        counts.append(int(id_samples[index:index + width].sum()))
        index += width
    return audio, counts[1:-1], counts[0]


def synthesize(voice, request, np):
    from piper.config import SynthesisConfig

    speed = float(request.get("speed", 1.0)) or 1.0
    syn_config = SynthesisConfig(length_scale=voice.config.length_scale / speed, normalize_audio=False)
    volume = float(request.get("volume", 1.0))
    chunks = []
    words = []
    offset = 0
    for sentence in voice.phonemize(request["text"]):
        if not sentence:
            continue
        sentence_chunks = []
        sentence_start = offset
        for piece in pieces(sentence):
            if not piece:
                continue
            spoken = speak_piece(voice, piece, syn_config, np)
            audio = spoken[0]
            if spoken[1] is not None:
                counts, position = spoken[1], offset + spoken[2]
                group_start, sounds = position, 0
                for phoneme, count in zip(piece, counts):
                    if phoneme == " ":
                        if sounds:
                            words.append([group_start, position, sounds])
                        group_start, sounds = position + count, 0
                    elif phoneme not in PUNCTUATION and phoneme not in "ˈˌː":
                        sounds += 1
                    position += count
                if sounds:
                    words.append([group_start, position, sounds])
            sentence_chunks.append(audio)
            offset += len(audio)
        if sentence_chunks:
            audio = np.concatenate(sentence_chunks)
            peak = float(np.max(np.abs(audio))) if len(audio) else 0.0
            gain = volume / peak if peak > 1e-8 else 0.0
            chunks.append(np.clip(audio * gain, -1.0, 1.0).astype("<f4"))
        del sentence_start
    samples = np.concatenate(chunks) if chunks else np.zeros(0, dtype="<f4")
    return samples, words


def main():
    if len(sys.argv) != 3:
        print("usage: worker.py MODEL.onnx MODEL.onnx.json", file=sys.stderr)
        return 64
    model_path, config_path = Path(sys.argv[1]), Path(sys.argv[2])
    for path in (model_path, config_path):
        if not path.is_file():
            fail_startup("no such file", path)
    import numpy as np

    voice = load_voice(model_path, config_path)
    reply({"ready": True, "sample_rate": voice.config.sample_rate})
    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
        except ValueError as error:
            reply({"samples": 0, "words": [], "error": f"bad request ({error})"})
            continue
        try:
            samples, words = synthesize(voice, request, np)
        except Exception as error:  # the phonemizer or the model refused this text: say so, keep serving
            reply({"samples": 0, "words": [], "error": f"{error.__class__.__name__}: {error}"})
            continue
        reply({"samples": int(len(samples)), "words": words}, samples.tobytes())
    return 0


if __name__ == "__main__":
    sys.exit(main())
