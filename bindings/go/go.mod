module libtrainsize.invalid/trainsize

go 1.19
