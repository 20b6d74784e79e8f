# SPDX-License-Identifier: GPL-3.0-or-later
"""Two small books of the project's own (GPL-3.0-or-later, like the rest of raudio), in French and in Russian,
for the alignment evaluation set: a preface with a footnote, then four short chapters."""

BOOKS = {
    "fr": {
        "title": "Une année au village",
        "preface": ("Préface",
                    ["Ce petit livre a été écrit pour vérifier la synchronisation du texte et de la voix.",
                     "Ses chapitres sont courts et ses phrases sont simples."],
                    "Cette note n'est pas lue à voix haute, comme les notes de la plupart des livres audio."),
        "chapters": [
            ("Chapitre 1. Le marché", [
                "Le samedi matin, la place du village se remplit de marchands et de curieux.",
                "On y trouve des fromages, des pommes, du pain encore chaud et des fleurs de toutes les couleurs.",
                "Ma grand-mère connaît chaque vendeur par son prénom.",
                "Elle goûte tout, discute longtemps et n'achète presque rien.",
                "À midi, les tables disparaissent et la place redevient silencieuse."]),
            ("Chapitre 2. La pluie", [
                "Vers trois heures, le ciel devint gris et le vent se leva sur les collines.",
                "Les premières gouttes tombèrent sur les tuiles avec un bruit léger.",
                "Nous rentrâmes le linge en courant, en riant comme des enfants.",
                "Toute la soirée, la pluie frappa les fenêtres de la cuisine.",
                "Mon père alluma le feu et nous racontâmes des histoires jusqu'à la nuit."]),
            ("Chapitre 3. La lettre", [
                "Le lendemain, le facteur apporta une lettre au timbre étranger.",
                "Elle venait de mon oncle, parti en Amérique il y a vingt ans.",
                "Il écrivait qu'il allait revenir au printemps, avec sa femme et ses deux filles.",
                "Ma mère relut la lettre trois fois, puis la rangea dans le tiroir du buffet.",
                "Ce soir-là, personne ne parla beaucoup, mais tout le monde souriait."]),
            ("Chapitre 4. Le retour", [
                "Au mois d'avril, une voiture noire s'arrêta devant la maison.",
                "Mon oncle descendit le premier, un peu plus gros et beaucoup plus gris que sur les photos.",
                "Il embrassa ma grand-mère, qui pleurait sans rien dire.",
                "Ses filles parlaient français avec un drôle d'accent.",
                "Le soir, toute la famille dîna dans le jardin, sous les lampions."]),
        ],
    },
    "ru": {
        "title": "Бухта",
        "preface": ("Предисловие",
                    ["Эта маленькая книга написана для проверки синхронизации текста и звука.",
                     "Её главы коротки, а предложения просты."],
                    "Это примечание не читается вслух, как и примечания в большинстве аудиокниг."),
        "chapters": [
            ("Глава 1. Дорога к морю", [
                "Утром мы вышли из города, когда солнце только поднималось над крышами.",
                "Дорога шла через поля, и ветер приносил запах скошенной травы.",
                "Мой брат нёс старую карту, которую нашёл на чердаке у деда.",
                "На карте была отмечена бухта, о которой никто в нашей деревне не слышал.",
                "Мы шли весь день и остановились только к вечеру, у маленького ручья."]),
            ("Глава 2. Ночь у костра", [
                "Когда стемнело, мы развели костёр и сварили картошку в котелке.",
                "Брат рассказывал истории о моряках, которые когда-то жили на этом берегу.",
                "Звёзды были такими яркими, что казалось, до них можно дотянуться рукой.",
                "Где-то далеко кричала ночная птица.",
                "Мы долго не могли уснуть и говорили о том, что увидим завтра."]),
            ("Глава 3. Бухта", [
                "На рассвете мы поднялись на холм и увидели внизу синюю воду.",
                "Бухта была маленькой и тихой, окружённой высокими скалами.",
                "У самой воды стояла старая лодка, наполовину засыпанная песком.",
                "Брат сказал, что карта не обманула, и засмеялся.",
                "Мы сели на камни и долго смотрели, как волны набегают на берег."]),
            ("Глава 4. Возвращение", [
                "Домой мы вернулись через два дня, усталые и счастливые.",
                "Мама ждала нас на крыльце и сразу спросила, где мы пропадали.",
                "Мы показали ей ракушки и камни, которые принесли с берега.",
                "Карту брат спрятал обратно на чердак, туда, где её нашёл.",
                "Но каждое лето с тех пор мы снова ходим к нашей бухте."]),
        ],
    },
}
