import RAudioCLI
import RAudioEngine

// Before any other thread starts: keep resident memory flat over hours of playback.
MemoryPolicy.applyForLongPlayback()
await RAudioCommand.runMain()
