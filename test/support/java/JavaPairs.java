// Reads lines "<first>\t<second>", each a string of UTF-16 units written as 4-digit hex, and prints one line
// per pair: what Java does with it under the verdict named by the program's argument.
//
// - `matches` (pattern, text): 1 or 0, whether text.matches(pattern), as the upstream's `matches` operator
//   evaluates it.
// - `find` (pattern, text): seven characters (1 or 0): text.matches(pattern); Matcher.find() of
//   \A(?:pattern)\z, as the gateway anchors for UPSTREAM_MATCHES=find; Matcher.find() of ^(?:pattern)$, the
//   anchoring it must not use; Matcher.find() of the pattern itself, as a part-matching upstream (and
//   EMULATOR_MATCHES=find) reads it; then the wrappings an upstream may add itself, without a group:
//   text.matches("^" + pattern + "$"), Matcher.find() of "^" + pattern + "$", Matcher.find() of
//   "\\A" + pattern + "\\z".
// - `case` (pattern, text): five characters (1 or 0): text.matches(pattern), the case-sensitive reference;
//   then, as an upstream that compiles with Pattern.CASE_INSENSITIVE reads it, matcher(text).matches() and
//   .find(); then the same with CASE_INSENSITIVE | UNICODE_CASE (an upstream folding every script's letters).
// - `charsets` (mode, text): what Java does with the text, as hex: `latin1` the bytes
//   String.getBytes(ISO_8859_1) writes (? for what Latin-1 lacks), `cp1252` 1 or 0 for whether windows-1252
//   encodes it, `form-latin1` / `form-utf8` the UTF-16 units URLDecoder.decode reads from it in that charset
//   (what a servlet's getParameter does with a form body).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

public class JavaPairs {
  static final int CI = Pattern.CASE_INSENSITIVE;
  static final int CIU = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
  static final Charset CP1252 = Charset.forName("windows-1252");

  static String decode(String hex) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i + 4 <= hex.length(); i += 4) out.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
    return out.toString();
  }

  static String units(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) out.append(String.format("%04x", (int) text.charAt(i)));
    return out.toString();
  }

  static char bit(boolean value) {
    return value ? '1' : '0';
  }

  static String find(String pattern, String text) {
    return new StringBuilder()
        .append(bit(text.matches(pattern)))
        .append(bit(Pattern.compile("\\A(?:" + pattern + ")\\z").matcher(text).find()))
        .append(bit(Pattern.compile("^(?:" + pattern + ")$").matcher(text).find()))
        .append(bit(Pattern.compile(pattern).matcher(text).find()))
        .append(bit(text.matches("^" + pattern + "$")))
        .append(bit(Pattern.compile("^" + pattern + "$").matcher(text).find()))
        .append(bit(Pattern.compile("\\A" + pattern + "\\z").matcher(text).find()))
        .toString();
  }

  static String caseVerdicts(String pattern, String text) {
    return new StringBuilder()
        .append(bit(text.matches(pattern)))
        .append(bit(Pattern.compile(pattern, CI).matcher(text).matches()))
        .append(bit(Pattern.compile(pattern, CI).matcher(text).find()))
        .append(bit(Pattern.compile(pattern, CIU).matcher(text).matches()))
        .append(bit(Pattern.compile(pattern, CIU).matcher(text).find()))
        .toString();
  }

  static String charsets(String mode, String text) {
    StringBuilder out = new StringBuilder();
    switch (mode) {
      case "latin1" -> {
        for (byte b : text.getBytes(StandardCharsets.ISO_8859_1)) out.append(String.format("%02x", b & 0xff));
      }
      case "cp1252" -> out.append(CP1252.newEncoder().canEncode(text) ? '1' : '0');
      case "form-latin1" -> out.append(units(URLDecoder.decode(text, StandardCharsets.ISO_8859_1)));
      case "form-utf8" -> out.append(units(URLDecoder.decode(text, StandardCharsets.UTF_8)));
      default -> throw new IllegalArgumentException(mode);
    }
    return out.toString();
  }

  public static void main(String[] args) throws Exception {
    String verdict = args[0];
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    StringBuilder out = new StringBuilder();
    for (String line; (line = in.readLine()) != null; ) {
      int tab = line.indexOf('\t');
      String first = decode(line.substring(0, tab));
      String second = decode(line.substring(tab + 1));
      out.append(
              switch (verdict) {
                case "matches" -> String.valueOf(bit(second.matches(first)));
                case "find" -> find(first, second);
                case "case" -> caseVerdicts(first, second);
                case "charsets" -> charsets(first, second);
                default -> throw new IllegalArgumentException(verdict);
              })
          .append('\n');
    }
    System.out.print(out);
  }
}
