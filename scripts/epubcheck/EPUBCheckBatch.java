// SPDX-License-Identifier: GPL-3.0-or-later
// EPUBCheck over many books in one Java process: the tests' EPUBCheck (Tests/RAudioTestSupport/EPUBCheck.swift)
// starts it once and sends it paths, instead of starting `java -jar epubcheck.jar` for each book, where
// about 6 s of CPU went to starting Java and compiling EPUBCheck's schemas again.
//
// Run with Java's source launcher: java -cp epubcheck.jar scripts/epubcheck/EPUBCheckBatch.java
// Reads one path per line on stdin; for each, runs EPUBCheck's command line (com.adobe.epubcheck.tool.EpubChecker,
// what `java -jar epubcheck.jar PATH` runs) and writes what it printed, then a line "\u0000END STATUS".
// Ends when stdin ends.
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

public class EPUBCheckBatch {
    public static void main(String[] arguments) throws Exception {
        PrintStream reply = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String path;
        while ((path = requests.readLine()) != null) {
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8);
            System.setOut(capture);
            System.setErr(capture);
            int status;
            try {
                status = new com.adobe.epubcheck.tool.EpubChecker().run(new String[] { path });
            } catch (Throwable failure) {
                failure.printStackTrace(capture);
                status = -1;
            }
            capture.flush();
            reply.print(printed.toString(StandardCharsets.UTF_8));
            reply.println("\u0000END " + status);
            reply.flush();
        }
    }
}
