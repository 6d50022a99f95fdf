package io.portshare.kit;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a raw file says about the run that wrote it: the command, the commit it measured, the
 * machine's load at start, and, when someone changed the file after the tool wrote it, an
 * {@code edited by hand:} line saying what and why. Each is a {@code key: value} line, as the tool
 * wrote it (a leading {@code #} and blanks aside); the load may stand inside a line of machine facts
 * ({@code kernel: ...  load average: 1.72 2.47 2.65}).
 */
public record RawHeader(Optional<String> command, Optional<String> commit, boolean uncommitted,
    Optional<String> load, Optional<String> editedByHand) {

  private static final Pattern COMMAND = Pattern.compile("(?i)^[#\\s]*command:\\s*(\\S.*)$");
  private static final Pattern COMMIT = Pattern.compile("(?i)^[#\\s]*commit:\\s*(\\S+)(.*)$");
  private static final Pattern LOAD = Pattern.compile("(?i)\\bload(?: average)?(?: at start)?:\\s*(\\S.*)$");
  private static final Pattern EDITED = Pattern.compile("(?i)^[#\\s]*edited by hand:\\s*(\\S.*)$");

  /** The header of a raw file's text; a fact it does not give is empty. */
  public static RawHeader of(String text) {
    String command = null;
    String commit = null;
    boolean uncommitted = false;
    String load = null;
    String edited = null;
    for (String line : text.split("\n")) {
      Matcher m;
      if (command == null && (m = COMMAND.matcher(line)).find()) {
        command = m.group(1).strip();
      } else if (commit == null && (m = COMMIT.matcher(line)).find()) {
        commit = m.group(1);
        uncommitted = m.group(2).contains("uncommitted");
      } else if (edited == null && (m = EDITED.matcher(line)).find()) {
        edited = m.group(1).strip();
      } else if (load == null && (m = LOAD.matcher(line)).find()) {
        load = m.group(1).strip();
      }
    }
    return new RawHeader(Optional.ofNullable(command), Optional.ofNullable(commit), uncommitted,
        Optional.ofNullable(load), Optional.ofNullable(edited));
  }

  /**
   * What the header of {@code path} lacks, one line each: the command, a commit {@code git} knows,
   * and the load at start, unless an {@code edited by hand:} line says why it is not there.
   */
  public List<String> problems(String path, Git git) {
    List<String> problems = new ArrayList<>();
    if (command.isEmpty()) {
      problems.add(path + ": no \"command:\" line in its header");
    }
    if (commit.isEmpty()) {
      problems.add(path + ": no \"commit:\" line in its header");
    } else if (!git.exists(commit.get())) {
      problems.add(path + ": its commit " + commit.get() + " does not exist in this repository");
    }
    if (load.isEmpty() && editedByHand.isEmpty()) {
      problems.add(path + ": no \"load average at start:\" line in its header, and no \"edited by hand:\" line"
          + " saying why");
    }
    return problems;
  }
}
