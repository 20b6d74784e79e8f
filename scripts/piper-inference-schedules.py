# SPDX-License-Identifier: GPL-3.0-or-later
"""How fast can a Piper voice speak a text on this machine, by ONNX Runtime schedule: the bound on any
Piper render (BENCHMARKS.md, issue 34's Piper speed target).

Speaks the lines of TEXT (one utterance a line, as bench-render.sh writes them) with the voice MODEL in pieces cut as
raudio's worker cuts them (piper/worker.py's plan_pieces, RAUDIO_PIPER_MAX_PHONEMES), or whole sentences as the
`piper` command speaks them, with each schedule given, and prints the wall and CPU seconds of the inference alone
(no encoding, no process start) and the peak memory of the process:

    .venv-piper/bin/python scripts/piper-inference-schedules.py MODEL.onnx TEXT [SCHEDULE ...]

A schedule is `default` (ONNX Runtime's own: the piper command's), or `THREADS:SPIN:CONCURRENT`: intra-op threads,
spinning (0 or 1), and how many inferences run at once on one session (each from a thread of its own).
"""
import json
import os
import resource
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(model, text, schedule, pieces_as):
    import onnxruntime
    import numpy as np
    from piper import PiperVoice
    from piper.config import PiperConfig, SynthesisConfig

    sys.path.insert(0, os.path.join(HERE, "..", "piper"))
    import worker  # raudio's worker: its piece planning

    config = PiperConfig.from_dict(json.load(open(model + ".json", encoding="utf-8")))
    options = onnxruntime.SessionOptions()
    concurrent = 1
    if schedule != "default":
        threads, spin, concurrent = (int(part) for part in schedule.split(":"))
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", str(spin))
    session = onnxruntime.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])
    voice = PiperVoice(session=session, config=config)
    pieces = []
    for line in open(text, encoding="utf-8"):
        sentences = [sentence for sentence in voice.phonemize(line.strip()) if sentence] if line.strip() else []
        pieces.extend(worker.plan_pieces(sentences, 0) if pieces_as == "raudio" else sentences)
    synthesis = SynthesisConfig(normalize_audio=False)
    lock, state = threading.Lock(), {"next": 0, "samples": 0}

    def speak():
        while True:
            with lock:
                if state["next"] >= len(pieces):
                    return
                piece = pieces[state["next"]]
                state["next"] += 1
            audio = voice.phoneme_ids_to_audio(voice.phonemes_to_ids(piece), synthesis)
            with lock:
                state["samples"] += len(np.atleast_1d(audio))

    start, before = time.time(), resource.getrusage(resource.RUSAGE_SELF)
    threads = [threading.Thread(target=speak) for _ in range(concurrent)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"schedule": schedule, "pieces": f"{len(pieces)} ({pieces_as})", "audio_s": round(state["samples"] / config.sample_rate, 1),
            "wall_s": round(time.time() - start, 2), "cpu_s": round(cpu, 2), "peak_rss_mb": round(after.ru_maxrss / 1024)}


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    model, text = sys.argv[1], sys.argv[2]
    schedules = sys.argv[3:] or ["default", "2:0:1", "1:0:1", "1:0:2"]
    if os.environ.get("RAUDIO_PIPER_SCHEDULE"):  # one schedule, in this process (a fresh one each: the peak is its own)
        schedule, pieces_as = os.environ["RAUDIO_PIPER_SCHEDULE"].split("/")
        print(json.dumps(measure(model, text, schedule, pieces_as)))
        return 0
    print("| schedule | pieces | audio s | inference wall s | CPU s | peak RSS MB |\n|---|---|---|---|---|---|")
    for schedule in schedules:
        for pieces_as in (["sentences"] if schedule == "default" else []) + ["raudio"]:
            environment = dict(os.environ, RAUDIO_PIPER_SCHEDULE=f"{schedule}/{pieces_as}")
            result = json.loads(subprocess.run([sys.executable, __file__, model, text], env=environment, check=True,
                                               capture_output=True, text=True).stdout)
            print(f"| {result['schedule']} | {result['pieces']} | {result['audio_s']} | {result['wall_s']} | {result['cpu_s']} | {result['peak_rss_mb']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
