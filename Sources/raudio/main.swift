// SPDX-License-Identifier: GPL-3.0-or-later
import RAudioCLI
import RAudioEngine

// Before any other thread starts (threads inherit the signal mask): SIGQUIT and fatal signals end the
// process with the terminal put back (not the runtime's backtracer waiting for ever); hold stop signals until the
// command installs its handlers, so a signal during start-up stops cleanly; and keep resident memory
// flat over hours of playback.
RAudioCommand.installFatalSignalHandlers()
RAudioCommand.holdStopSignals()
MemoryPolicy.applyForLongPlayback()
await RAudioCommand.runMain()
