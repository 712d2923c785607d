"""A minimal bot for the Cathedral play server (docs/play.md, "Bots"): it signs in (registering
the first time), accepts every challenge addressed to it, and plays a random legal move whenever
it is its turn, using the toolkit's Python package for the rules.

    pip install cathedral-toolkit websockets
    python bot.py http://127.0.0.1:8080 mybot 'a bot password'
"""

import json
import random
import sys
import time
import urllib.error
import urllib.request

import cathedral
from websockets.sync.client import connect


def post(server, path, body):
    request = urllib.request.Request(
        server + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused)


def sign_in(server, name, password):
    credentials = {"name": name, "password": password}
    status, answer = post(server, "/play/api/bots/login", credentials)
    if status == 401:  # no such bot yet: register it
        status, answer = post(server, "/play/api/bots", credentials)
    if status != 200:
        sys.exit(f"the server refused the bot: {answer['error']}")
    return answer["token"]


def choose(view):
    """A random legal move of the game the server's view shows."""
    position = cathedral.Position(view["spec"]["rules"])
    for move in view["moves"]:
        position, _ = position.play(move["text"])
    return random.choice(position.legal_moves())


def main(server, name, password, games=0):
    token = sign_in(server, name, password)
    address = server.replace("http://", "ws://") + "/play/socket"
    played, watched = set(), set()
    with connect(address, additional_headers={"Authorization": f"Bearer {token}"}) as socket:
        last_look = 0.0
        while not games or len(played) < games:
            if time.time() - last_look > 1:
                socket.send(json.dumps({"type": "challenges", "ref": 1}))
                last_look = time.time()
            try:
                message = json.loads(socket.recv(timeout=1))
            except TimeoutError:
                continue
            if message["type"] == "done" and "challenges" in message:
                for challenge in message["challenges"]:
                    if challenge["to"] and challenge["from"] != name:
                        socket.send(json.dumps({"type": "answer", "challenge": challenge["id"], "verb": "accept", "ref": 2}))
            elif message["type"] == "done" and message.get("game") and message.get("ref") == 2:
                watched.add(message["game"])
                socket.send(json.dumps({"type": "watch", "game": message["game"]}))
            elif message["type"] == "game":
                view = message["game"]
                if view["ending"]:
                    if view["id"] not in played:
                        played.add(view["id"])
                        print(f"game {view['id']}: {view['result_text']}", flush=True)
                    for following in (view["in_match"] or {}).get("games", []):
                        if following not in watched:  # the match's second game
                            watched.add(following)
                            socket.send(json.dumps({"type": "watch", "game": following}))
                elif view["you"] is not None and view["to_move"] == view["you"]:
                    move = choose(view)
                    action = {"action": "move", "text": move, "ply": len(view["moves"])}
                    socket.send(json.dumps({"type": "act", "game": view["id"], "action": action, "ref": 3}))
            elif message["type"] == "refused":
                print(f"refused: {message['error']}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 0)
