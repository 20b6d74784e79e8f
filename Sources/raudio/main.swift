import RAudioCLI

await RAudioCommand.runMain()
