// Reads lines "<mode>\t<text>", each a string of UTF-16 units written as 4-digit hex, and prints per line what
// Java does with the text, as hex: `latin1` the bytes String.getBytes(ISO_8859_1) writes (? for what Latin-1
// lacks), `cp1252` 1 or 0 for whether windows-1252 encodes it, `form-latin1` / `form-utf8` the UTF-16 units
// URLDecoder.decode reads from it in that charset (what a servlet's getParameter does with a form body).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

public class JavaCharsets {
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

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    StringBuilder out = new StringBuilder();
    Charset cp1252 = Charset.forName("windows-1252");
    for (String line; (line = in.readLine()) != null; ) {
      int tab = line.indexOf('\t');
      String mode = decode(line.substring(0, tab));
      String text = decode(line.substring(tab + 1));
      switch (mode) {
        case "latin1" -> {
          for (byte b : text.getBytes(StandardCharsets.ISO_8859_1)) out.append(String.format("%02x", b & 0xff));
        }
        case "cp1252" -> out.append(cp1252.newEncoder().canEncode(text) ? '1' : '0');
        case "form-latin1" -> out.append(units(URLDecoder.decode(text, StandardCharsets.ISO_8859_1)));
        case "form-utf8" -> out.append(units(URLDecoder.decode(text, StandardCharsets.UTF_8)));
        default -> throw new IllegalArgumentException(mode);
      }
      out.append('\n');
    }
    System.out.print(out);
  }
}
