// Reads lines "<pattern>\t<text>", each a string of UTF-16 units written as 4-digit hex, and prints three
// characters per line (1 or 0): text.matches(pattern); Matcher.find() of \A(?:pattern)\z, as the gateway
// anchors for UPSTREAM_MATCHES=find; Matcher.find() of ^(?:pattern)$, the anchoring it must not use;
// Matcher.find() of the pattern itself, as a part-matching upstream (and EMULATOR_MATCHES=find) reads it;
// then the wrappings an upstream may add itself, without a group: text.matches("^" + pattern + "$"),
// Matcher.find() of "^" + pattern + "$", Matcher.find() of "\\A" + pattern + "\\z".
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

public class JavaFind {
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
    for (String line; (line = in.readLine()) != null; ) {
      int tab = line.indexOf('\t');
      String pattern = decode(line.substring(0, tab));
      String text = decode(line.substring(tab + 1));
      out.append(bit(text.matches(pattern)))
          .append(bit(Pattern.compile("\\A(?:" + pattern + ")\\z").matcher(text).find()))
          .append(bit(Pattern.compile("^(?:" + pattern + ")$").matcher(text).find()))
          .append(bit(Pattern.compile(pattern).matcher(text).find()))
          .append(bit(text.matches("^" + pattern + "$")))
          .append(bit(Pattern.compile("^" + pattern + "$").matcher(text).find()))
          .append(bit(Pattern.compile("\\A" + pattern + "\\z").matcher(text).find()))
          .append('\n');
    }
    System.out.print(out);
  }
}
