package experiments;

import ai.FastLog;
import ai.FastSigm;
import ai.FastTanh;
import ai.framework.AIPlayer;
import ai.framework.IBoard;
import ai.framework.IMove;
import ai.framework.MoveList;
import ai.mcts.MCTSPlayer;
import alphabeta.AlphaBeta;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * mcts_arena's GTP front end for the paper engine (tpepels/mcts_gameframe at e8e21fd6 with
 * mcts_gameframe-e8e21fd6.patch): one of the engine's labelled players (SimGame's labels:
 * ab_tt_ev1, mcts_s_h_efv0_ege0.1_det0.5_im0.4, ...) answering the GTP dialect mcts_arena's GTP
 * player speaks (docs/engines.md), for Breakthrough and Kalah.
 *
 * Usage: java -cp BUILD experiments.ArenaGtp --game breakthrough|kalah --label LABEL
 *        (--work N | --time S) [--seed N] [--warmup MS]
 * --work N: a fixed amount of work a move, N simulations for an MCTS label (SimGame's _sl: the
 * engine's own fixed-simulation loop) or N αβ nodes for an ab label (the patch's node limit:
 * the search stops at the N-th node as it stops at its time, keeping the last finished
 * iteration's move). --time S: S seconds a move, the engine's own clock (its time check).
 * Each clear_board makes the player afresh (no tree reuse, as SimGame plays) and seeds the
 * engine's one random generator (MCTSOptions.r) with --seed, so a game at fixed work repeats.
 * --warmup MS searches copies of the start position for MS ms before the first command, so
 * the JIT has compiled the search before a timed move (the rates harness drops 2 moves instead).
 *
 * Moves are mcts_arena's notation: Breakthrough a2-a3 / b4xc5 (white, the first player, on
 * ranks 1-2 = the engine's player 1 on rows 6-7), Kalah houses 1-6 of the side to move
 * (the engine's houses 0-5 for player 1, 6-11 for player 2). set_position takes mcts_arena's
 * Kalah text ("h1,...,h6,store/h1,...,h6,store SIDE"). Extensions: set_position,
 * arena_stats (the last genmove's work: `sims=N` or `nodes=N depth=D`, and `stopped=1` for a
 * search stopped by a proven win). The engine's own prints go to stderr.
 */
public class ArenaGtp {
    static final String[] COMMANDS = {"protocol_version", "name", "version", "known_command",
        "list_commands", "boardsize", "clear_board", "set_position", "play", "genmove",
        "time_settings", "time_left", "kgs-time_settings", "set_random_seed", "arena_stats",
        "showboard", "quit"};

    final String game, label;
    final long work;
    final int timeMs;
    long seed;
    IBoard board;
    AIPlayer player;
    String lastStats = "";
    final PrintStream out;

    ArenaGtp(String game, String label, long work, int timeMs, long seed, PrintStream out) {
        this.game = game;
        this.label = label;
        this.work = work;
        this.timeMs = timeMs;
        this.seed = seed;
        this.out = out;
    }

    static void usage(String why) {
        System.err.println("ArenaGtp: error: " + why);
        System.exit(2);
    }

    public static void main(String[] args) throws Exception {
        String game = null, label = null;
        long work = 0, seed = 1;
        double time = 0;
        int warmup = 0;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length)
                    usage("option " + a + " needs a value");
                switch (a) {
                    case "--game": game = args[++i]; break;
                    case "--label": label = args[++i]; break;
                    case "--work": work = Long.parseLong(args[++i]); break;
                    case "--time": time = Double.parseDouble(args[++i]); break;
                    case "--seed": seed = Long.parseLong(args[++i]); break;
                    case "--warmup": warmup = Integer.parseInt(args[++i]); break;
                    default: usage("unknown option " + a);
                }
            }
        } catch (NumberFormatException e) {
            usage("not a number: " + e.getMessage());
        }
        if (!"breakthrough".equals(game) && !"kalah".equals(game))
            usage("--game must be breakthrough or kalah");
        if (label == null || !(label.startsWith("mcts") || label.startsWith("ab")))
            usage("--label must be one of the engine's mcts... or ab... labels");
        if ((work > 0) == (time > 0))
            usage("give exactly one of --work N (N > 0) and --time S (S > 0)");
        if (work > Integer.MAX_VALUE - 1)
            usage("--work is at most " + (Integer.MAX_VALUE - 1));
        PrintStream protocol = new PrintStream(new java.io.FileOutputStream(
                java.io.FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);      // the engine prints its search's progress on stdout
        FastTanh.tanh(1.);
        FastSigm.sigm(1.);
        FastLog.log(1.);
        ArenaGtp gtp = new ArenaGtp(game, label, work, (int) Math.round(time * 1000), seed,
                protocol);
        try {
            gtp.newGame();
        } catch (RuntimeException e) {
            usage("the engine refused label " + label + ": " + e.getMessage());
        }
        if (warmup > 0)
            gtp.warmUp(warmup);
        gtp.loop(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
    }

    /** A fresh board at the start position and a fresh player, seeded. */
    void newGame() {
        SimGame sim = new SimGame();
        boolean mcts = label.startsWith("mcts");
        // SimGame's fixed-simulation loop runs its limit + 1 simulations
        int limit = work > 0 ? (mcts ? (int) work - 1 : Integer.MAX_VALUE / 4) : timeMs;
        sim.parseArgs(new String[]{"--game", game, "--timelimit", Integer.toString(limit),
                                   "--seed", Long.toString(seed)});
        sim.loadPlayer(1, work > 0 && mcts ? label + "_sl" : label);
        player = sim.player(1);
        if (work > 0 && player instanceof AlphaBeta)
            ((AlphaBeta) player).options().nodeLimit = work;
        if (game.equals("kalah")) {
            kalah.game.Board b = new kalah.game.Board();
            b.initialize();
            board = b;
        } else {
            board = new breakthrough.game.Board();
            board.initialize();
        }
        lastStats = "";
    }

    void warmUp(int ms) {
        long end = System.currentTimeMillis() + ms;
        IBoard start = board.copy();
        while (System.currentTimeMillis() < end)
            player.getMove(start.copy(), null, start.getPlayerToMove(), false, null);
        newGame();
    }

    void loop(BufferedReader in) throws Exception {
        String line;
        while ((line = in.readLine()) != null) {
            int hash = line.indexOf('#');
            if (hash >= 0)
                line = line.substring(0, hash);
            line = line.trim();
            if (line.isEmpty())
                continue;
            String[] w = line.split("\\s+");
            String id = "";
            int k = 0;
            if (w[0].matches("\\d+")) {
                id = w[0];
                k = 1;
            }
            if (k >= w.length) {
                reply(false, id, "no command");
                continue;
            }
            String cmd = w[k];
            String[] a = java.util.Arrays.copyOfRange(w, k + 1, w.length);
            try {
                String answer = command(cmd, a, line);
                reply(true, id, answer);
                if (cmd.equals("quit"))
                    return;
            } catch (GtpError e) {
                reply(false, id, e.getMessage());
            }
        }
    }

    static class GtpError extends Exception {
        GtpError(String m) { super(m); }
    }

    void reply(boolean ok, String id, String text) {
        out.print((ok ? "=" : "?") + id + (text.isEmpty() ? "" : " " + text) + "\n\n");
        out.flush();
    }

    String command(String cmd, String[] a, String line) throws GtpError {
        switch (cmd) {
            case "protocol_version": return "2";
            case "name": return "gameframe-" + label;
            case "version": return "e8e21fd6";
            case "list_commands": return String.join("\n", COMMANDS);
            case "known_command":
                return a.length > 0 && java.util.Arrays.asList(COMMANDS).contains(a[0])
                        ? "true" : "false";
            case "boardsize":
                if (game.equals("breakthrough") && a.length == 1 && a[0].equals("8"))
                    return "";
                throw new GtpError("unacceptable size");
            case "clear_board": newGame(); return "";
            case "set_position": setPosition(line.substring(line.indexOf("set_position") + 12)
                    .trim()); return "";
            case "play":
                if (a.length != 2)
                    throw new GtpError("syntax error: play COLOR MOVE");
                play(color(a[0]), a[1]);
                return "";
            case "genmove":
                if (a.length != 1)
                    throw new GtpError("syntax error: genmove COLOR");
                return genmove(color(a[0]));
            case "time_settings": case "time_left": case "kgs-time_settings":
                return "";      // a fixed budget a move (--work or --time)
            case "set_random_seed":
                if (a.length != 1 || !a[0].matches("\\d+"))
                    throw new GtpError("syntax error: set_random_seed N");
                seed = Long.parseLong(a[0]);
                newGame();
                return "";
            case "arena_stats": return lastStats;
            case "showboard":       // GTP forbids an empty line inside an answer
                return "\n" + board.toString().replaceAll("(?m)^\\s*\\n", "").trim();
            case "quit": return "";
            default: throw new GtpError("unknown command");
        }
    }

    /** The engine's player (1 or 2) for a GTP colour: Breakthrough w/b, Kalah b/w (first). */
    int color(String word) throws GtpError {
        String c = word.toLowerCase();
        String first = game.equals("breakthrough") ? "w" : "b";
        String second = game.equals("breakthrough") ? "b" : "w";
        if (c.equals(first) || c.equals(first.equals("w") ? "white" : "black"))
            return 1;
        if (c.equals(second) || c.equals(second.equals("w") ? "white" : "black"))
            return 2;
        throw new GtpError("invalid color " + word);
    }

    void play(int who, String text) throws GtpError {
        if (board.checkWin() != IBoard.NONE_WIN)
            throw new GtpError("the game is over on the engine's board");
        if (board.getPlayerToMove() != who)
            throw new GtpError("it is not that colour's move");
        IMove m = find(text);
        if (m == null)
            throw new GtpError("illegal move " + text);
        board.doAIMove(m, who);
    }

    String genmove(int who) throws GtpError {
        if (board.checkWin() != IBoard.NONE_WIN)
            throw new GtpError("the game is over on the engine's board");
        if (board.getPlayerToMove() != who)
            throw new GtpError("it is not that colour's move");
        double nodesBefore = 0;
        if (player instanceof AlphaBeta)
            nodesBefore = ((AlphaBeta) player).totalnodes();
        player.getMove(board.copy(), null, who, false, null);
        IMove m = player.getBestMove();
        if (m == null)
            throw new GtpError("the engine found no move");
        if (player instanceof MCTSPlayer) {
            MCTSPlayer mp = (MCTSPlayer) player;
            lastStats = "sims=" + mp.lastSimulations + (mp.lastStoppedEarly ? " stopped=1" : "");
        } else if (player instanceof AlphaBeta) {
            AlphaBeta ab = (AlphaBeta) player;
            lastStats = "nodes=" + Math.round(ab.totalnodes() - nodesBefore)
                    + " depth=" + ab.lastDepth();
        }
        String text = format(m);
        IMove mine = find(text);        // the list's own move object (its undo information)
        if (mine == null)
            throw new GtpError("the engine chose a move its board does not list: " + m);
        board.doAIMove(mine, who);
        return text;
    }

    IMove find(String text) {
        MoveList moves = board.getExpandMoves();
        for (int i = 0; i < moves.size(); i++)
            if (format(moves.get(i)).equals(text))
                return moves.get(i);
        return null;
    }

    String format(IMove m) {
        int[] v = m.getMove();
        if (game.equals("kalah"))
            return Integer.toString((v[0] % 6) + 1);
        return square(v[0], v[1]) + (m.isProtected() ? "x" : "-") + square(v[2], v[3]);
    }

    static String square(int r, int c) {
        return "" + (char) ('a' + c) + (8 - r);
    }

    /** mcts_arena's Kalah text: "h1,...,h6,store/h1,...,h6,store SIDE" (SIDE 0 or 1). */
    void setPosition(String text) throws GtpError {
        if (!game.equals("kalah"))
            throw new GtpError("set_position: only Kalah positions (start Breakthrough games "
                    + "with play)");
        String[] parts = text.split("\\s+");
        String[] sides = parts[0].split("/");
        if (parts.length != 2 || sides.length != 2)
            throw new GtpError("set_position: expected h1,...,h6,store/h1,...,h6,store SIDE");
        int[] houses = new int[12];
        int[] stores = new int[2];
        int total = 0;
        try {
            for (int s = 0; s < 2; s++) {
                String[] f = sides[s].split(",");
                if (f.length != 7)
                    throw new GtpError("set_position: a side has 6 houses and a store");
                for (int h = 0; h < 6; h++)
                    total += houses[6 * s + h] = Integer.parseInt(f[h]);
                total += stores[s] = Integer.parseInt(f[6]);
            }
        } catch (NumberFormatException e) {
            throw new GtpError("set_position: not a number");
        }
        if (total != 48)
            throw new GtpError("set_position: the engine plays 48 stones, not " + total);
        if (!parts[1].equals("0") && !parts[1].equals("1"))
            throw new GtpError("set_position: the side to move is 0 or 1");
        kalah.game.Board b = new kalah.game.Board();
        b.initialize(houses);
        b.store1 = stores[0];
        b.store2 = stores[1];
        b.curPlayer = parts[1].equals("0") ? 1 : 2;
        board = b;
    }
}
