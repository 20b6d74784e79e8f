import RAudioCLI
import RAudioEngine

// Before any other thread starts: keep resident memory flat over hours of playback, and hold stop
// signals until the command installs its handlers (a signal during start-up stops cleanly).
MemoryPolicy.applyForLongPlayback()
RAudioCommand.holdStopSignals()
await RAudioCommand.runMain()
