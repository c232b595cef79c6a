// Reads lines "<pattern>\t<text>", each a string of UTF-16 units written as 4-digit hex, and prints five
// characters per line (1 or 0): text.matches(pattern), the case-sensitive reference; then, as an upstream that
// compiles with Pattern.CASE_INSENSITIVE reads it, matcher(text).matches() and .find(); then the same with
// CASE_INSENSITIVE | UNICODE_CASE (an upstream folding every script's letters).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

public class JavaCase {
  static String decode(String hex) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i + 4 <= hex.length(); i += 4) out.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
    return out.toString();
  }

  static char bit(boolean value) {
    return value ? '1' : '0';
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    StringBuilder out = new StringBuilder();
    int ci = Pattern.CASE_INSENSITIVE;
    int ciu = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    for (String line; (line = in.readLine()) != null; ) {
      int tab = line.indexOf('\t');
      String pattern = decode(line.substring(0, tab));
      String text = decode(line.substring(tab + 1));
      out.append(bit(text.matches(pattern)))
          .append(bit(Pattern.compile(pattern, ci).matcher(text).matches()))
          .append(bit(Pattern.compile(pattern, ci).matcher(text).find()))
          .append(bit(Pattern.compile(pattern, ciu).matcher(text).matches()))
          .append(bit(Pattern.compile(pattern, ciu).matcher(text).find()))
          .append('\n');
    }
    System.out.print(out);
  }
}
