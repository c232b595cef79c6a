import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Runs java.util.regex the way the upstream does (String.matches, i.e. Matcher.matches) with a time limit,
 * for the pattern guard's tests. One JVM serves every case, read from stdin one per line:
 *
 *   id TAB base64(pattern) TAB base64(subject) TAB limitMillis
 *
 * and answered on stdout, one line per case, in the order read:
 *
 *   id TAB outcome TAB cpuMicros
 *
 * where outcome is match, nomatch, timeout, invalid (PatternSyntaxException) or overflow (StackOverflowError,
 * which Java's recursive matcher throws on long subjects for some patterns).
 *
 * Java's matcher ignores Thread.interrupt(), so the limit is enforced by the subject itself: a CharSequence
 * whose charAt throws once the deadline has passed (the matcher reads the subject through charAt).
 *
 * Time is the matching thread's CPU time, not the wall clock: it is what a pattern costs an upstream thread,
 * and it stays the same when other processes load the machine (a wall clock there counts the time the
 * thread waited for a core, and turned fast patterns into timeouts).
 */
public final class RegexTimer {
  private RegexTimer() {}

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** The CPU time the calling thread has used, in nanoseconds. */
  static long cpuNanos() {
    return THREADS.getCurrentThreadCpuTime();
  }

  /** Thrown out of the matcher by {@link Deadlined#charAt} once time is up. */
  static final class DeadlineExceeded extends RuntimeException {
    DeadlineExceeded() {
      super(null, null, false, false);
    }
  }

  /** The subject, read through a clock: reading the clock on every call would dominate the timing. */
  static final class Deadlined implements CharSequence {
    private final String text;
    private final long deadlineNanos;
    private int reads;

    Deadlined(String text, long deadlineNanos) {
      this.text = text;
      this.deadlineNanos = deadlineNanos;
    }

    @Override
    public char charAt(int index) {
      if ((++reads & 0x3ff) == 0 && cpuNanos() > deadlineNanos) throw new DeadlineExceeded();
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new Deadlined(text.substring(start, end), deadlineNanos);
    }

    @Override
    public String toString() {
      return text;
    }
  }

  static String run(String pattern, String subject, long limitMillis) {
    Pattern compiled;
    try {
      compiled = Pattern.compile(pattern);
    } catch (PatternSyntaxException e) {
      return "invalid";
    }
    long deadline = cpuNanos() + limitMillis * 1_000_000L;
    Matcher matcher = compiled.matcher(new Deadlined(subject, deadline));
    try {
      return matcher.matches() ? "match" : "nomatch";
    } catch (DeadlineExceeded e) {
      return "timeout";
    } catch (StackOverflowError e) {
      return "overflow";
    }
  }

  public static void main(String[] args) throws Exception {
    // Let the JIT compile the matcher before the first timed case.
    Pattern warm = Pattern.compile("(?:[a-z]+\\d*)*x|.*y.*");
    for (int i = 0; i < 20_000; i++) warm.matcher("abc123def456ghi" + i).matches();

    Base64.Decoder base64 = Base64.getDecoder();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    out.println("ready");
    out.flush();
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) continue;
      String[] fields = line.split("\t", -1);
      String pattern = new String(base64.decode(fields[1]), StandardCharsets.UTF_8);
      String subject = new String(base64.decode(fields[2]), StandardCharsets.UTF_8);
      long limit = Long.parseLong(fields[3]);
      long start = cpuNanos();
      String outcome = run(pattern, subject, limit);
      long micros = (cpuNanos() - start) / 1_000;
      out.println(fields[0] + "\t" + outcome + "\t" + micros);
      out.flush();
    }
  }
}
