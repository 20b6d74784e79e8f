#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# raudio render as a SLURM job array (docs/render.md): one task per share of the book, then a merge job
# that starts once every task has ended well. Submit with `bash docs/render/slurm.sh BOOK.epub OUTDIR`
# from a folder every node sees.
set -euo pipefail
BOOK=${1:?usage: slurm.sh BOOK.epub OUTDIR}
OUT=${2:?usage: slurm.sh BOOK.epub OUTDIR}
SHARDS=${SHARDS:-8}
mkdir -p "$OUT/parts" "$OUT/cache"

# Each task renders share SLURM_ARRAY_TASK_ID of SHARDS; a task that fails or is preempted can be
# resubmitted alone (sbatch --array=N): its cache keeps what it had done. The tasks never trim the cache they
# share (a cluster file system may not pass flock between nodes): the merge does.
shards=$(sbatch --parsable --array="1-$SHARDS" --cpus-per-task=2 --mem=1G --job-name=raudio-render \
    --wrap "raudio render '$BOOK' --shard \"\$SLURM_ARRAY_TASK_ID/$SHARDS\" --cache '$OUT/cache' --cache-size unlimited --jobs 2 --to part '$OUT/parts/part-'\"\$SLURM_ARRAY_TASK_ID\"'.rpart'")

parts=$(for i in $(seq 1 "$SHARDS"); do printf "'%s' " "$OUT/parts/part-$i.rpart"; done)
sbatch --dependency="afterok:$shards" --cpus-per-task=2 --mem=1G --job-name=raudio-merge \
    --wrap "raudio render '$BOOK' --merge $parts --to epub3 '$OUT/book.epub' --to m4b '$OUT/book.m4b'"
