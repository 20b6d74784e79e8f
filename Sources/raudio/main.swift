// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioCLI
import RAudioEngine

// Before any other thread starts (threads inherit the signal mask): hold stop signals until the
// command installs its handlers, so a signal during start-up stops cleanly; and keep resident memory
// flat over hours of playback.
RAudioCommand.holdStopSignals()
MemoryPolicy.applyForLongPlayback()
await RAudioCommand.runMain()
